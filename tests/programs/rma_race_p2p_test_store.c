/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_p2p_test_store.c - rank 1 posts MPI_Irecv into x, calls MPI_Test
 * once and, when it answers flag = 0, stores into x before MPI_Wait.  An
 * MPI_Test that returns flag = 0 does not complete the receive (MPI 3.1
 * 3.7.3): in the orderings where the message has not arrived yet the store
 * races with the receive.  The twin rma_race_p2p_test_store_ok.c tests
 * until the flag is set before storing.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x = 0, flag = 0, v;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req); /* [A] */
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        if (!flag) {
            x = -1; /* [B] */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        printf("rank 1: -1 or 10: %d\n", x == -1 || x == 10);
    }
    MPI_Finalize();
    return 0;
}
