/* ordex-expect: ranks=2 clean */
/*
 * rma_race_p2p_irecv_store_ok.c - twin of rma_race_p2p_irecv_store.c: rank 1
 * posts MPI_Irecv into x and stores into x only after MPI_Wait has
 * completed the receive (MPI 3.1 3.7.3).  No race: rank 1 reads 10, then
 * holds 5.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x = 0, v;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 1: %d\n", x);
        x = 5;
        printf("rank 1: %d\n", x);
    }
    MPI_Finalize();
    return 0;
}
