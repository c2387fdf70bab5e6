/*
 * backtrace.c - rank 2 crashes two calls below main, after receiving one
 * message from any source.
 *
 * ordex must report: [crash] "rank 2 crashed: SIGSEGV" at backtrace.c on the
 * line marked FAULT, with the backtrace inner (FAULT), outer (CALL_INNER),
 * main (CALL_OUTER); explore's ordering names the lines marked SEND and
 * RECV.  The functions are not inlined, whatever the optimisation.
 */
#include <mpi.h>
#include <stdio.h>

static int *volatile target; /* NULL; volatile so the compiler keeps the store */

__attribute__((noinline)) static void inner(int v) {
    *target = v; /* FAULT */
}

__attribute__((noinline)) static void outer(int v) {
    inner(v + 1); /* CALL_INNER */
    printf("not reached: %d\n", v);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* RECV */
        outer(v); /* CALL_OUTER */
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 2, 0, MPI_COMM_WORLD); /* SEND */
    }
    MPI_Finalize();
    return 0;
}
