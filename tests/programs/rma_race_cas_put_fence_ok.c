/* ordex-expect: ranks=3 clean */
/*
 * rma_race_cas_put_fence_ok.c - twin of rma_race_cas_put_fence.c: the
 * compare_and_swap is in the epoch between fence(MPI_MODE_NOPRECEDE) and
 * fence(MPI_MODE_NOSTORE), the put in the next one, closed by
 * fence(MPI_MODE_NOSUCCEED).  The middle fence completes the
 * compare_and_swap everywhere (MPI 3.1 11.5.1): no race.  Rank 0 fetched 0
 * and swapped in 1; rank 2 ends with 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, cmp = 0, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    if (rank == 0)
        MPI_Compare_and_swap(&v, &cmp, &got, MPI_INT, 2, 1, win);
    MPI_Win_fence(MPI_MODE_NOSTORE, win);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (rank == 0)
        printf("rank 0: fetched %d\n", got);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
