/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_cas_get_lockall.c - every rank opens an epoch with
 * MPI_Win_lock_all; rank 0 does a compare_and_swap on an int of rank 2's
 * window and rank 1 gets it.  A get is not atomic with a compare_and_swap
 * (MPI 3.1 11.7.1), and nothing orders them before MPI_Win_unlock_all: a
 * data race.  The twin rma_race_cas_get_lockall_ok.c gets after a barrier
 * that follows MPI_Win_unlock_all.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, cmp = 0, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0)
        MPI_Compare_and_swap(&v, &cmp, &got, MPI_INT, 2, 1, win); /* [A] */
    if (rank == 1)
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
