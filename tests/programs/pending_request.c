/*
 * pending_request.c - rank 1 posts an MPI_Irecv that nothing matches and never
 * waits for it.
 *
 * ordex must report: [pending_request] "rank 1: the request of MPI_Irecv was
 * never matched or completed", at pending_request.c on the line marked FAULT;
 * exit status 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int value = 0;
    MPI_Request req;
    if (rank == 1) {
        MPI_Irecv(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &req); /* FAULT */
    }
    printf("rank %d: done\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
