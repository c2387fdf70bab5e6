/*
 * leak_race.c - a message race in a program that also leaks a
 * communicator.  Rank 0 receives one message from each other rank with
 * MPI_ANY_SOURCE and prints them in the order they came; every rank
 * duplicates MPI_COMM_WORLD ([DUP]) and never frees the copy.
 * ordex explore: the leak is a warning, and the orderings in which it is
 * found still count for the race: a message race (warning), no error.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* [DUP] */
    if (rank == 0) {
        for (int i = 1; i < size; i++) {
            int v;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, dup, MPI_STATUS_IGNORE);
            printf("rank 0: message %d from rank %d\n", i, v);
        }
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, dup);
    }
    MPI_Finalize();
    return 0;
}
