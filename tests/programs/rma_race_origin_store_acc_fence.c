/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_origin_store_acc_fence.c - in a fence epoch rank 0 accumulates
 * (MPI_SUM) from v into rank 1's window and stores into v before the fence
 * that completes the accumulate.  The origin buffer must not change until
 * the operation completes (MPI 3.1 11.3.4): a data race between the
 * accumulate and the store.  The twin rma_race_origin_store_acc_fence_ok.c
 * stores after the fence.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Accumulate(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win); /* [A] */
        v = 20;                                                         /* [B] */
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
