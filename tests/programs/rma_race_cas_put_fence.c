/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_cas_put_fence.c - a fence epoch opened with MPI_MODE_NOPRECEDE
 * and closed with MPI_MODE_NOSUCCEED, in which rank 0 does a
 * compare_and_swap on an int of rank 2's window and rank 1 puts to it.  A
 * put is not atomic with a compare_and_swap (MPI 3.1 11.7.1): a data race.
 * The twin rma_race_cas_put_fence_ok.c puts in a second epoch.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, cmp = 0, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    if (rank == 0)
        MPI_Compare_and_swap(&v, &cmp, &got, MPI_INT, 2, 1, win); /* [A] */
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
