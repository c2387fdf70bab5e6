/* ordex-expect: ranks=2 clean */
/*
 * rma_race_origin_store_get_ok.c - twin of rma_race_origin_store_get.c:
 * rank 0 stores into got before it issues the get into got; the get's
 * write comes after the store in program order (MPI 3.1 11.3.2), and the
 * closing fence completes it before the load.  No race: rank 0 reads 7.
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
        got = 0;
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: %d\n", got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
