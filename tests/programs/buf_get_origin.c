/* ordex-expect: ranks=2 past=A object=v bytes=4 */
/*
 * buf_get_origin.c - rank 0 gets 2 ints of rank 1's window into the single
 * int `v` on its stack: the get writes 4 bytes past its end.  The twin
 * buf_get_origin_ok.c gets into int v[2].
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
        int v;
        MPI_Get(&v, 2, MPI_INT, 1, 0, 2, MPI_INT, win); /* [A] */
        MPI_Win_fence(0, win);
        printf("%d\n", v);
    } else {
        MPI_Win_fence(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
