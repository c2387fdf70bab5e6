/* ordex-expect: ranks=2 clean */
/*
 * rma_race_p2p_isend_store_ok.c - twin of rma_race_p2p_isend_store.c: rank
 * 0 sends x with MPI_Isend, waits for the send to complete (MPI 3.1 3.7.3)
 * and only then stores into x and sends it again.  No race: rank 1 gets 10
 * and 20.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x = 10, got[2] = {-1, -1};
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        x = 20;
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&got[0], 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&got[1], 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: %d %d\n", got[0], got[1]);
    }
    MPI_Finalize();
    return 0;
}
