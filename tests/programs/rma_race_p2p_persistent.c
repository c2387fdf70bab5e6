/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_p2p_persistent.c - rank 1 receives two messages through one
 * persistent request (MPI_Recv_init, then MPI_Start and MPI_Wait twice); in
 * the second round it stores into the buffer after MPI_Start but before
 * MPI_Wait.  A started persistent receive owns its buffer like MPI_Irecv
 * (MPI 3.1 3.9): a data race between the receive and the store.  The twin
 * rma_race_p2p_persistent_ok.c stores between the rounds.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x = 0, sum = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 1; i <= 2; i++)
            MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv_init(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        for (int round = 0; round < 2; round++) {
            MPI_Start(&req); /* [A] */
            if (round == 1)
                x = 0; /* [B] */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            sum += x;
        }
        MPI_Request_free(&req);
        printf("rank 1: %d\n", sum);
    }
    MPI_Finalize();
    return 0;
}
