/* ordex-expect: ranks=2 type=A object=total byte=0 types=MPI_DOUBLE,long */
/*
 * buf_rma_fop_target.c - rank 0 adds 1.0 with MPI_Fetch_and_op and
 * MPI_DOUBLE to rank 1's window over the global long total: the origin and
 * result are doubles, but the target is a long of the same size (a sum of
 * doubles on its bits). The twin buf_rma_fop_target_ok.c makes total a
 * double.
 */
#include <mpi.h>

static long total;

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
