/* ordex-expect: ranks=3 clean */
/*
 * rma_race_p2p_waitany_store_ok.c - twin of rma_race_p2p_waitany_store.c:
 * rank 1 posts two MPI_Irecv, from ranks 0 and 2, calls MPI_Waitany once
 * and stores into the buffer of the receive that it returned, which is
 * complete (MPI 3.1 3.7.5); the other buffer is touched only after its
 * MPI_Wait.  No race: rank 1 sums 22.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, bufs[2][1] = {{0}, {0}}, src[2] = {0, 2}, idx = -1, v, sum = 0;
    MPI_Request reqs[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    v = 10 + rank;
    if (rank == 1) {
        for (int k = 0; k < 2; k++)
            MPI_Irecv(bufs[k], 1, MPI_INT, src[k], 0, MPI_COMM_WORLD, &reqs[k]);
        MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE);
        sum += bufs[idx][0];
        bufs[idx][0] = -1;
        MPI_Wait(&reqs[1 - idx], MPI_STATUS_IGNORE);
        sum += bufs[1 - idx][0];
        printf("rank 1: %d\n", sum);
    } else {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
