/* ordex-expect: ranks=2 clean */
/*
 * buf_reduce_double_ok.c - the correct twin of buf_reduce_double.c: reduces
 * doubles.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x = rank + 1, sum = 0;
    MPI_Reduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
