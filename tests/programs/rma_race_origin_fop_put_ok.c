/* ordex-expect: ranks=3 clean */
/*
 * rma_race_origin_fop_put_ok.c - twin of rma_race_origin_fop_put.c:
 * MPI_Win_flush_local(2) completes the fetch_and_op at the origin (MPI 3.1
 * 11.5.4), so x holds the fetched value before the put reads it: no race.
 * Rank 1 ends with the 4 fetched from rank 2, rank 2 with 5.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {4, 0, 0, 0}, one = 1, x = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Fetch_and_op(&one, &x, MPI_INT, 2, 0, MPI_SUM, win);
        MPI_Win_flush_local(2, win);
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank > 0)
        printf("rank %d: %d\n", rank, buf[0]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
