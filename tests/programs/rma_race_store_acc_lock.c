/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_acc_lock.c - rank 0 accumulates (MPI_SUM) into int 1 of
 * rank 1's window under an exclusive lock on rank 1, while rank 1 stores
 * into that int without taking any lock.  The lock excludes only other
 * locks, not the target's own stores: a store and an accumulate to one
 * location, unordered, are erroneous (MPI 3.1 11.7), a data race.  The twin
 * rma_race_store_acc_lock_ok.c has rank 1 lock its own window exclusively
 * around the store.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Accumulate(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win); /* [A] */
        MPI_Win_unlock(1, win);
    } else {
        buf[1] = 5; /* [B] */
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
