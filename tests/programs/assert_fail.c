/*
 * assert_fail.c - an assert fails in rank 2.
 *
 * ordex must report: [crash] "rank 2 crashed: SIGABRT", at assert_fail.c on the
 * line marked FAULT (the assert); exit status 1.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int value = rank * 10;
    assert(value != 20); /* FAULT */
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: value %d\n", rank, value);
    MPI_Finalize();
    return 0;
}
