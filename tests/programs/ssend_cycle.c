/*
 * ssend_cycle.c - ranks 0 and 1 both call MPI_Ssend to each other before
 * receiving.  A synchronous send completes only when the receive is posted,
 * so this deadlocks in every send mode (also --send-mode eager): ordex must
 * report [deadlock] with the wait-for cycle rank 0 -> rank 1 -> rank 0, both
 * ranks blocked in MPI_Ssend on the line marked FAULT, and it must not blame
 * unbuffered standard sends.  Other ranks do nothing.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank < 2) {
        int out = rank, in = -1, other = 1 - rank;
        MPI_Ssend(&out, 1, MPI_INT, other, 0, MPI_COMM_WORLD); /* FAULT */
        MPI_Recv(&in, 1, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank %d: got %d\n", rank, in);
    }
    MPI_Finalize();
    return 0;
}
