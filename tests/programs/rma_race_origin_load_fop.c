/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_origin_load_fop.c - in a fence epoch rank 0 calls
 * MPI_Fetch_and_op (MPI_SUM) on int 1 of rank 1's window with result
 * buffer old, and reads old before the fence that completes the operation.
 * The fetched value is in old only at completion (MPI 3.1 11.3.4): the load
 * races with the operation's write of old.  The twin
 * rma_race_origin_load_fop_ok.c reads after the fence.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, old = -1, seen = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Fetch_and_op(&v, &old, MPI_INT, 1, 1, MPI_SUM, win); /* [A] */
        seen = old;                                              /* [B] */
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: -1 or 1: %d\n", seen == -1 || seen == 1);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
