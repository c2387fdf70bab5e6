/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_p2p_isend_store.c - rank 0 sends x with MPI_Isend and stores
 * into x before MPI_Wait completes the send.  The sender must not modify
 * the send buffer until the send completes (MPI 3.1 3.7.2): the receiver
 * may get either value, a data race.  The twin
 * rma_race_p2p_isend_store_ok.c stores after MPI_Wait.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x = 10, got = -1;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req); /* [A] */
        x = 20;                                                /* [B] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: 10 or 20: %d\n", got == 10 || got == 20);
    }
    MPI_Finalize();
    return 0;
}
