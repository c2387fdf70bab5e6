/* ordex-expect: ranks=2 clean */
/*
 * buf_allgatherv_blocks_ok.c - the correct twin of buf_allgatherv_blocks.c:
 * the 2 doubles of each rank go to displacements 0 and 2 of double all[4].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double mine[2] = {rank, rank + 0.5};
    double all[4];
    int counts[2] = {2, 2}, displs[2] = {0, 2};
    MPI_Allgatherv(mine, 2, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD); /* [A] */
    MPI_Finalize();
    return 0;
}
