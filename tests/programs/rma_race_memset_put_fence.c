/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_memset_put_fence.c - in one fence epoch rank 0 puts to int 5 of
 * rank 1's window while rank 1 clears its whole window with memset.
 * memset stores into every byte, int 5 among them: a store and a put of one
 * location in the same epoch (MPI 3.1 11.7), a data race, reported at the
 * memset.  The twin rma_race_memset_put_fence_ok.c clears the window
 * before the fence that opens the epoch.
 */
#include <mpi.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, buf[64], v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 1, 5, 1, MPI_INT, win); /* [A] */
    else
        memset(buf, 0, sizeof buf); /* [B] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
