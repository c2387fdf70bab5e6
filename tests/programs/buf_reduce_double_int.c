/* ordex-expect: ranks=2 past=A object=x bytes=4 */
/*
 * buf_reduce_double_int.c - both sides of a reduce describe their int
 * variables as MPI_DOUBLE: the type signatures agree, but 8 bytes are read
 * from the 4-byte `x` (and written into `y`): 4 bytes past its end.  The
 * twin buf_reduce_double_int_ok.c uses MPI_INT.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank + 1;
    MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); /* [A] */
    if (rank == 0)
        printf("%d\n", y);
    MPI_Finalize();
    return 0;
}
