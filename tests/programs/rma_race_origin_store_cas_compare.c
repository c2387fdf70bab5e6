/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_origin_store_cas_compare.c - under MPI_Win_lock_all rank 0 calls
 * MPI_Compare_and_swap on int 1 of rank 1's window and changes the compare
 * value before any call completes the operation.  The compare buffer, like
 * the origin buffer, is read by MPI until local completion (MPI 3.1
 * 11.3.4): a data race between the operation and the store.  The twin
 * rma_race_origin_store_cas_compare_ok.c changes it after
 * MPI_Win_flush_local.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v = 9, cmp = 1, old = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Compare_and_swap(&v, &cmp, &old, MPI_INT, 1, 1, win); /* [A] */
        cmp = 2;                                                  /* [B] */
        MPI_Win_unlock_all(win);
        printf("rank 0: %d\n", old);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
