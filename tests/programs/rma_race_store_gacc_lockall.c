/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_gacc_lockall.c - under MPI_Win_lock_all rank 0 calls
 * MPI_Get_accumulate (MPI_SUM) on int 1 of rank 1's window and flushes it,
 * while rank 1 stores into that int with nothing ordering the store with
 * the flush.  A store and an accumulate to one location, unordered, are
 * erroneous (MPI 3.1 11.7): a data race.  The twin
 * rma_race_store_gacc_lockall_ok.c sends rank 1 a message after the flush
 * and stores once it has arrived.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, old = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        /* [A] */ MPI_Get_accumulate(&v, 1, MPI_INT, &old, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM,
                                     win);
        MPI_Win_flush(1, win);
        MPI_Win_unlock_all(win);
        printf("rank 0: 1 or 5: %d\n", old == 1 || old == 5);
    } else {
        buf[1] = 5; /* [B] */
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
