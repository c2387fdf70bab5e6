/* ordex-expect: ranks=2 clean */
/*
 * rma_race_origin_store_rput_ok.c - twin of rma_race_origin_store_rput.c:
 * under MPI_Win_lock_all rank 0 puts from v with MPI_Rput, waits for the
 * request (local completion, MPI 3.1 11.3.5), then stores into v and puts
 * again.  No race: rank 1 reads 10 and 20.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Rput(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        v = 20;
        MPI_Rput(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d %d\n", buf[1], buf[2]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
