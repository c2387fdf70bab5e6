/* ordex-expect: ranks=2 overlap=A byte=8 blocks=0,1 */
/*
 * buf_allgatherv_blocks.c - an allgatherv over 2 ranks of 2 doubles each
 * into double all[4] at displacements 0 and 1: rank 1's block starts
 * inside rank 0's (byte 8 is in both). The twin buf_allgatherv_blocks_ok.c
 * uses displacements 0 and 2.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double mine[2] = {rank, rank + 0.5};
    double all[4];
    int counts[2] = {2, 2}, displs[2] = {0, 1};
    MPI_Allgatherv(mine, 2, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD); /* [A] */
    MPI_Finalize();
    return 0;
}
