/* ordex-expect: ranks=3 clean */
/*
 * rma_race_origin_get_get_ok.c - twin of rma_race_origin_get_get.c: in one
 * fence epoch rank 0 gets an int from rank 1 into x[0] and one from rank 2
 * into x[1].  The gets write disjoint bytes: no race.  Rank 0 prints 1 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, x[2] = {0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    buf[0] = rank;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Get(&x[0], 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Get(&x[1], 1, MPI_INT, 2, 0, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: %d %d\n", x[0], x[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
