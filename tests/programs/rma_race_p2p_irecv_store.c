/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_p2p_irecv_store.c - rank 1 posts MPI_Irecv into x and stores
 * into x before MPI_Wait completes the receive.  The receive buffer belongs
 * to MPI until the receive completes (MPI 3.1 3.7.2: the receiver should not
 * access any part of it): the store races with the message's arrival.  The
 * twin rma_race_p2p_irecv_store_ok.c stores after MPI_Wait.
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
        MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req); /* [A] */
        x = 5;                                                 /* [B] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 1: 5 or 10: %d\n", x == 5 || x == 10);
    }
    MPI_Finalize();
    return 0;
}
