/* ordex-expect: ranks=2 overlap=A byte=8 blocks=0,1 */
/*
 * buf_gatherv_blocks.c - the root of a gatherv over 2 ranks places 3 ints
 * of each at displacements 0 and 2 of int all[8]: the blocks of ranks 0
 * and 1 share all[2] (byte 8), which would be written twice (MPI 3.1
 * section 5.5 makes the call erroneous). The twin buf_gatherv_blocks_ok.c
 * uses displacements 0 and 3.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int mine[3] = {rank, rank, rank};
    int all[8];
    int counts[2] = {3, 3}, displs[2] = {0, 2};
    MPI_Gatherv(mine, 3, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD); /* [A] */
    MPI_Finalize();
    return 0;
}
