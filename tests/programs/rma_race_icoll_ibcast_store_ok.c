/* ordex-expect: ranks=2 clean */
/*
 * rma_race_icoll_ibcast_store_ok.c - twin of rma_race_icoll_ibcast_store.c:
 * every rank starts MPI_Ibcast on x (root 0), waits for it to complete (MPI
 * 3.1 5.12) and only then stores into x.  No race: rank 1 reads 10 before
 * its store.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank == 0 ? 10 : 0;
    MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("rank %d: %d\n", rank, x);
    x = 20 + rank;
    printf("rank %d: %d\n", rank, x);
    MPI_Finalize();
    return 0;
}
