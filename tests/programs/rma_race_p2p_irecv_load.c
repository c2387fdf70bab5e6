/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_p2p_irecv_load.c - rank 1 posts MPI_Irecv into an array and
 * reads one of its elements before MPI_Wait completes the receive.  The
 * data is there only once the receive has completed (MPI 3.1 3.7.2): the
 * load races with the message's arrival.  The twin
 * rma_race_p2p_irecv_load_ok.c reads after MPI_Wait.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, a[4] = {0, 0, 0, 0}, seen;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int v[4] = {1, 2, 3, 4};
        MPI_Send(v, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Irecv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &req); /* [A] */
        seen = a[2];                                          /* [B] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 1: 0 or 3: %d\n", seen == 0 || seen == 3);
    }
    MPI_Finalize();
    return 0;
}
