/* ordex-expect: ranks=2 clean */
/*
 * buf_reduce_double_int_ok.c - a reduce of int variables described as
 * MPI_INT.  Twin of buf_reduce_double_int.c (MPI_DOUBLE on ints).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank + 1;
    MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d\n", y);
    MPI_Finalize();
    return 0;
}
