/* ordex-expect: ranks=2 clean */
/*
 * rma_race_p2p_persistent_ok.c - twin of rma_race_p2p_persistent.c: rank 1
 * receives two messages through one persistent request and touches the
 * buffer only between MPI_Wait and the next MPI_Start, when no receive owns
 * it (MPI 3.1 3.9).  No race: rank 1 sums 3.
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
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            sum += x;
            x = 0;
        }
        MPI_Request_free(&req);
        printf("rank 1: %d\n", sum);
    }
    MPI_Finalize();
    return 0;
}
