/*
 * lost_message.c - rank 0 sends a message (tag 9) to rank 1, which never
 * receives it.  The send is buffered (eager), so nobody blocks.
 *
 * ordex must report: [lost_message] "rank 0 sent a message to rank 1 (tag 9 ...)
 * that was never received", at lost_message.c on the line marked FAULT; exit 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int value = 17;
    if (rank == 0) {
        MPI_Send(&value, 1, MPI_INT, 1, 9, MPI_COMM_WORLD); /* FAULT */
    }
    printf("rank %d: done\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
