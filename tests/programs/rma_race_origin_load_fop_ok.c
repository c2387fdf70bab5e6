/* ordex-expect: ranks=2 clean */
/*
 * rma_race_origin_load_fop_ok.c - twin of rma_race_origin_load_fop.c: rank
 * 0 calls MPI_Fetch_and_op (MPI_SUM) on int 1 of rank 1's window in a
 * fence epoch and reads its result buffer after the closing fence (MPI 3.1
 * 11.5.1).  No race: rank 0 reads 1, rank 1 ends with 11.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, old = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Fetch_and_op(&v, &old, MPI_INT, 1, 1, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: %d\n", old);
    else
        printf("rank 1: %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
