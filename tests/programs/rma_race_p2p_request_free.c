/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_p2p_request_free.c - rank 0 sends x with MPI_Isend, frees the
 * request at once with MPI_Request_free and stores into x.  Freeing an
 * active request does not complete it: the program may not modify the send
 * buffer until it learns otherwise that the send has completed (MPI 3.1
 * 3.7.3), so the store races with the send.  Exploration finds it with
 * unbuffered sends (with buffered ones ordex gives the buffer back at once:
 * rma_race_p2p_request_free_run.c).  The twin
 * rma_race_p2p_request_free_ok.c stores after rank 1's reply, which tells
 * it the message has arrived.
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
        MPI_Request_free(&req);
        x = 20; /* [B] */
    } else {
        MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: 10 or 20: %d\n", got == 10 || got == 20);
    }
    MPI_Finalize();
    return 0;
}
