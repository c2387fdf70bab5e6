/*
 * fpe.c - integer division by zero in rank 0.
 *
 * ordex must report: [crash] "rank 0 crashed: SIGFPE", at fpe.c on the line
 * marked FAULT; exit status 1.
 */
#include <mpi.h>
#include <stdio.h>

static volatile int divisor; /* 0 for rank 0 */

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    divisor = rank;
    int q = 1000 / divisor; /* FAULT */
    printf("rank %d: quotient %d\n", rank, q);
    MPI_Finalize();
    return 0;
}
