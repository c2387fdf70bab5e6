/* ordex-expect: ranks=3 clean */
/*
 * rma_race_origin_put_put_ok.c - in one fence epoch rank 0 puts the same
 * int x to ranks 1 and 2.  Both puts only read x (MPI 3.1 11.3.1); reads
 * do not conflict: no race.  Ranks 1 and 2 end with 9.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, x = 9;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Put(&x, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    if (rank > 0)
        printf("rank %d: %d\n", rank, buf[0]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
