/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_origin_get_get.c - in one fence epoch rank 0 gets an int from
 * rank 1 and another from rank 2 into the same two-int buffer, the second
 * at its second int while the first covers both.  Both gets write the
 * second int before the closing fence, in no defined order (MPI 3.1 11.3):
 * a data race at the origin.  The twin rma_race_origin_get_get_ok.c gets
 * into the two halves.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, x[2] = {0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Get(x, 2, MPI_INT, 1, 0, 2, MPI_INT, win);     /* [A] */
        MPI_Get(&x[1], 1, MPI_INT, 2, 0, 1, MPI_INT, win); /* [B] */
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
