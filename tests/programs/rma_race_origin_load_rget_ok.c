/* ordex-expect: ranks=2 clean */
/*
 * rma_race_origin_load_rget_ok.c - twin of rma_race_origin_load_rget.c:
 * rank 0 gets int 1 of rank 1's window into got with MPI_Rget and reads
 * got after MPI_Wait (MPI 3.1 11.3.5: a completed MPI_Rget's buffer holds
 * the data).  No race: rank 0 reads 7.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 7, 0, 0}, got = -1;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Rget(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 0: %d\n", got);
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
