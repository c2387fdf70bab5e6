/* ordex-expect: ranks=3 clean */
/*
 * rma_race_acc_put_fence_ok.c - twin of rma_race_acc_put_fence.c: the put
 * goes to the int after the accumulated one.  Accesses to disjoint bytes
 * never conflict (MPI 3.1 11.7.1): no race.  Rank 2 prints 1 2.
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
        MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 2, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 2)
        printf("rank 2: %d %d\n", buf[1], buf[2]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
