/* ordex-expect: ranks=2 clean */
/*
 * rma_race_load_fop_lock_ok.c - twin of rma_race_load_fop_lock.c: rank 0
 * calls MPI_Fetch_and_op (MPI_SUM) on int 1 of rank 1's window under a
 * shared lock on rank 1; the unlock completes it at the target (MPI 3.1
 * 11.5.3) and a barrier orders rank 1's load after it.  No race: rank 0
 * fetched 1, rank 1 reads 11.
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
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Fetch_and_op(&v, &old, MPI_INT, 1, 1, MPI_SUM, win);
        MPI_Win_unlock(1, win);
        printf("rank 0: %d\n", old);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
