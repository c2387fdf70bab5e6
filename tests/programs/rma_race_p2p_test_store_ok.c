/* ordex-expect: ranks=2 clean */
/*
 * rma_race_p2p_test_store_ok.c - twin of rma_race_p2p_test_store.c: rank 1
 * posts MPI_Irecv into x and calls MPI_Test until it answers flag = 1,
 * which completes the receive (MPI 3.1 3.7.3); only then does it store
 * into x.  No race: rank 1 reads 10, then holds -1.
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
        MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        printf("rank 1: %d\n", x);
        x = -1;
        printf("rank 1: %d\n", x);
    }
    MPI_Finalize();
    return 0;
}
