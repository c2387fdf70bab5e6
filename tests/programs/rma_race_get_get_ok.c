/* ordex-expect: ranks=3 clean */
/*
 * rma_race_get_get_ok.c - ranks 0 and 1 get the same int of rank 2's window
 * in one fence epoch.  Two reads never conflict (MPI 3.1 11.7.1): no race.
 * Both print the 5 that rank 2 stored before the first fence.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        buf[1] = 5;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank < 2)
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank < 2)
        printf("rank %d: got %d\n", rank, got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
