/* ordex-expect: ranks=2 clean */
/*
 * rma_race_store_acc_lock_ok.c - twin of rma_race_store_acc_lock.c: rank 0
 * accumulates (MPI_SUM) into int 1 of rank 1's window under an exclusive
 * lock on rank 1, and rank 1 stores into that int inside an exclusive lock
 * of its own window.  The two epochs exclude each other, and an unlock
 * completes the accumulate at the target (MPI 3.1 11.5.3): in either grant
 * order the accesses are ordered, no race.  Rank 1 ends with 5 (store
 * last) or 15 (accumulate last).
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
        MPI_Accumulate(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(1, win);
    } else {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        buf[1] = 5;
        MPI_Win_unlock(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: 5 or 15: %d\n", buf[1] == 5 || buf[1] == 15);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
