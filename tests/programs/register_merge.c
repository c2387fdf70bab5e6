/*
 * register_merge.c - a value the program keeps in a register across MPI calls.
 *
 * Built with optimisation (see the attribute on main), rank 0 keeps `first`,
 * the value its first wildcard receive got, in a callee-saved register
 * across its later MPI calls, while the memory it received into is cleared.
 * The two orderings of the first round then reach the second round with the
 * same memory but different registers.  They must not be merged: rank 0
 * prints `first`, which differs between them.
 *
 * Expected: a message race (rank 0 prints "first 10" or "first 20"); no
 * other error.
 */
#include <mpi.h>
#include <stdio.h>

__attribute__((optimize("O2"), noinline)) static int receive_any(int tag) {
    int v;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int got = v;
    *(volatile int *)&v = 0; /* the stack holds no trace of it */
    return got;
}

__attribute__((optimize("O2"))) int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int first = receive_any(0);
        int sum = first + receive_any(0) + receive_any(1) + receive_any(1);
        printf("first %d, sum %d\n", first, sum);
    } else if (rank <= 2) {
        for (int round = 0; round < 2; round++) {
            int v = rank * 10 + round;
            MPI_Send(&v, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
