/* ordex-expect: ranks=2 clean */
/*
 * buf_gatherv_blocks_ok.c - the correct twin of buf_gatherv_blocks.c:
 * the root places the 3 ints of each rank at displacements 0 and 3 of
 * int all[8], blocks that do not meet.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int mine[3] = {rank, rank, rank};
    int all[8];
    int counts[2] = {3, 3}, displs[2] = {0, 3};
    MPI_Gatherv(mine, 3, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD); /* [A] */
    MPI_Finalize();
    return 0;
}
