/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_fop_fence.c - in one fence epoch rank 0 calls
 * MPI_Fetch_and_op (MPI_SUM) on int 1 of rank 1's window while rank 1
 * stores into that int.  Fetch-and-op is atomic only with other
 * accumulates, not with the target's stores (MPI 3.1 11.7.1): unordered in
 * one epoch, a data race.  The twin rma_race_store_fop_fence_ok.c stores
 * before the fence that opens the epoch.
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
        MPI_Fetch_and_op(&v, &old, MPI_INT, 1, 1, MPI_SUM, win); /* [A] */
    else
        buf[1] = 5; /* [B] */
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: 1 or 5: %d\n", old == 1 || old == 5);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
