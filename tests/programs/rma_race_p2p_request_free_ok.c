/* ordex-expect: ranks=2 clean */
/*
 * rma_race_p2p_request_free_ok.c - twin of rma_race_p2p_request_free.c:
 * rank 0 sends x with MPI_Isend and frees the request, then waits for rank
 * 1's reply, which rank 1 sends after its receive has completed; only then
 * does rank 0 store into x (MPI 3.1 3.7.3: completion learnt by other
 * means).  No race: rank 1 gets 10.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x = 10, got = -1, ack = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
        MPI_Recv(&ack, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        x = 20;
    } else {
        MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&ack, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        printf("rank 1: %d\n", got);
    }
    MPI_Finalize();
    return 0;
}
