/* ordex-expect: ranks=2 overlap=A byte=4 blocks=0,1 */
/*
 * buf_alltoallv_blocks.c - an alltoallv over 2 ranks receives 2 ints from
 * each peer into int got[4] at receive displacements 0 and 1: the blocks
 * from ranks 0 and 1 share got[1] (byte 4). The twin
 * buf_alltoallv_blocks_ok.c uses receive displacements 0 and 2.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int out[4] = {rank, rank, rank, rank}, got[4];
    int counts[2] = {2, 2}, sdispls[2] = {0, 2}, rdispls[2] = {0, 1};
    MPI_Alltoallv(out, counts, sdispls, MPI_INT, got, counts, rdispls, MPI_INT, /* [A] */
                  MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
