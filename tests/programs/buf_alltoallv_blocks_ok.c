/* ordex-expect: ranks=2 clean */
/*
 * buf_alltoallv_blocks_ok.c - the correct twin of buf_alltoallv_blocks.c:
 * the 2 ints from each peer go to receive displacements 0 and 2 of
 * int got[4].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int out[4] = {rank, rank, rank, rank}, got[4];
    int counts[2] = {2, 2}, sdispls[2] = {0, 2}, rdispls[2] = {0, 2};
    MPI_Alltoallv(out, counts, sdispls, MPI_INT, got, counts, rdispls, MPI_INT, /* [A] */
                  MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
