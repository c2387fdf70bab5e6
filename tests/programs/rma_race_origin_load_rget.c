/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_origin_load_rget.c - under MPI_Win_lock_all rank 0 gets int 1
 * of rank 1's window into got with MPI_Rget and reads got before MPI_Wait
 * returns the request.  The data is in got only once the request has
 * completed (MPI 3.1 11.3.5): a data race between the get and the load.
 * The twin rma_race_origin_load_rget_ok.c reads after MPI_Wait.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 7, 0, 0}, got = -1, seen;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Rget(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win, &req); /* [A] */
        seen = got;                                              /* [B] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Win_unlock_all(win);
        printf("rank 0: -1 or 7: %d\n", seen == -1 || seen == 7);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
