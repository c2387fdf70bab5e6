/* ordex-expect: ranks=2 clean */
/*
 * buf_get_origin_ok.c - rank 0 gets 2 ints of rank 1's window into
 * int v[2]: they fit.  Twin of buf_get_origin.c (a single int).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[2] = {1, 2};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        int v[2];
        MPI_Get(v, 2, MPI_INT, 1, 0, 2, MPI_INT, win);
        MPI_Win_fence(0, win);
        printf("%d %d\n", v[0], v[1]);
    } else {
        MPI_Win_fence(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
