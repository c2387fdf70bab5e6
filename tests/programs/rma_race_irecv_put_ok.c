/* ordex-expect: ranks=3 clean */
/*
 * rma_race_irecv_put_ok.c - twin of rma_race_irecv_put.c: rank 1 posts
 * MPI_Irecv into int 2 of its own window while rank 0 puts to int 1 under
 * MPI_Win_lock_all.  The receive and the put write different bytes (MPI
 * 3.1 11.7): no race.  After the window's closing barrier rank 1 reads
 * 10 12.
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
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
    } else if (rank == 1) {
        MPI_Irecv(&buf[2], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d %d\n", buf[1], buf[2]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
