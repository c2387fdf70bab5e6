/* ordex-expect: ranks=2 overlap=A byte=4 blocks=0,1 */
/*
 * buf_alltoallw_blocks.c - an alltoallw over 2 ranks receives 2 contiguous
 * ints from each peer into int got[4] at byte displacements 0 and 4: the
 * blocks from ranks 0 and 1 share got[1]. The twin
 * buf_alltoallw_blocks_ok.c receives each peer's 2 ints as a vector of
 * stride 2 at the same displacements: the blocks interleave (got[0],
 * got[2] and got[1], got[3]) and share no byte.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int out[4] = {rank, rank, rank, rank}, got[4];
    int counts[2] = {2, 2}, sdispls[2] = {0, 8}, rdispls[2] = {0, 4};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Alltoallw(out, counts, sdispls, types, got, counts, rdispls, types, /* [A] */
                  MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
