/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_icoll_ibcast_store.c - every rank starts MPI_Ibcast on x (root
 * 0) and stores into x before MPI_Wait completes the broadcast.  The buffer
 * of a pending nonblocking collective belongs to MPI until it completes
 * (MPI 3.1 5.12): at the root the store may change what is sent, elsewhere
 * the broadcast may overwrite it, a data race.  The twin
 * rma_race_icoll_ibcast_store_ok.c stores after MPI_Wait.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank == 0 ? 10 : 0;
    MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &req); /* [A] */
    if (rank == 1)
        x = 20; /* [B] */
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("rank %d: %d\n", rank, x);
    MPI_Finalize();
    return 0;
}
