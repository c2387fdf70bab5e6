/* ordex-expect: ranks=2 clean */
/*
 * rma_race_p2p_irecv_load_ok.c - twin of rma_race_p2p_irecv_load.c: rank 1
 * posts MPI_Irecv into an array and reads it after MPI_Wait (MPI 3.1
 * 3.7.3).  No race: rank 1 reads 3.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, a[4] = {0, 0, 0, 0};
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int v[4] = {1, 2, 3, 4};
        MPI_Send(v, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Irecv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 1: %d\n", a[2]);
    }
    MPI_Finalize();
    return 0;
}
