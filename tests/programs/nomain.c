/*
 * nomain.c - a library with only a function: there is no main.
 *
 * ordex must refuse it: exit status 2 with a one-line message saying the
 * program has no main function.
 */
#include <mpi.h>

int helper(int x) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return x + rank;
}
