/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_origin_store_get.c - in a fence epoch rank 0 gets int 1 of rank
 * 1's window into got and stores into got before the closing fence.  The
 * get writes got at some moment before the fence completes it (MPI 3.1
 * 11.3.2): two unordered writes, a data race.  The twin
 * rma_race_origin_store_get_ok.c stores before the get.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 7, 0, 0}, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        got = 0;                                          /* [B] */
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: 0 or 7: %d\n", got == 0 || got == 7);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
