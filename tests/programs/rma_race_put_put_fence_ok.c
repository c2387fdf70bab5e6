/* ordex-expect: ranks=3 clean */
/*
 * rma_race_put_put_fence_ok.c - twin of rma_race_put_put_fence.c: rank 0
 * puts in the first fence epoch, rank 1 in the second.  The middle fence
 * completes rank 0's put at the target before rank 1's starts (MPI 3.1
 * 11.5.1): ordered, no race.  Rank 2 prints 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
