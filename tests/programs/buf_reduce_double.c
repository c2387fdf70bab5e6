/* ordex-expect: ranks=2 past=A object=x bytes=4 */
/*
 * buf_reduce_double.c - both sides of a reduce pass int variables as
 * MPI_DOUBLE: the type signatures agree, but 8 bytes are read from the
 * 4-byte int x. The twin buf_reduce_double_ok.c reduces doubles.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int x = rank + 1, sum = 0;
    MPI_Reduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); /* [A] */
    MPI_Finalize();
    return 0;
}
