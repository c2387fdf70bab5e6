/* ordex-expect: ranks=2 clean */
/*
 * buf_alltoallw_blocks_ok.c - the correct twin of buf_alltoallw_blocks.c:
 * each peer's 2 ints arrive as one vector of stride 2 at byte
 * displacements 0 and 4 of int got[4], so the blocks interleave (got[0],
 * got[2] from rank 0, got[1], got[3] from rank 1) without sharing a byte.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int out[4] = {rank, rank, rank, rank}, got[4];
    MPI_Datatype every_other;
    MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int scounts[2] = {2, 2}, sdispls[2] = {0, 8}, rcounts[2] = {1, 1}, rdispls[2] = {0, 4};
    MPI_Datatype stypes[2] = {MPI_INT, MPI_INT}, rtypes[2] = {every_other, every_other};
    MPI_Alltoallw(out, scounts, sdispls, stypes, got, rcounts, rdispls, rtypes, /* [A] */
                  MPI_COMM_WORLD);
    MPI_Type_free(&every_other);
    MPI_Finalize();
    return 0;
}
