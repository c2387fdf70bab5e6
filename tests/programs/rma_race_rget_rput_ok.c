/* ordex-expect: ranks=3 clean */
/*
 * rma_race_rget_rput_ok.c - twin of rma_race_rget_rput.c: MPI_Wait on the
 * MPI_Rget's request completes the get at the origin (MPI 3.1 11.3.5): x
 * holds the value got before MPI_Rput reads it.  No race; rank 1 ends with
 * rank 2's 4.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {4, 0, 0, 0}, x = 9;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Rget(&x, 1, MPI_INT, 2, 0, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Rput(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d\n", buf[0]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
