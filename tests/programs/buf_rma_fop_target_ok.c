/* ordex-expect: ranks=2 clean */
/*
 * buf_rma_fop_target_ok.c - the correct twin of buf_rma_fop_target.c:
 * the MPI_DOUBLE fetch-and-add lands on rank 1's double total.
 */
#include <mpi.h>

static double total;

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double one = 1.0, old = 0;
    MPI_Win win;
    MPI_Win_create(&total, sizeof total, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Fetch_and_op(&one, &old, MPI_DOUBLE, 1, 0, MPI_SUM, win); /* [A] */
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
