/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_load_fop_lock.c - rank 0 calls MPI_Fetch_and_op (MPI_SUM) on int
 * 1 of rank 1's window under a shared lock on rank 1; rank 1 loads that int
 * before the barrier that follows rank 0's unlock.  The load may see the
 * value before or after the update: erroneous (MPI 3.1 11.7), a data race.
 * The twin rma_race_load_fop_lock_ok.c loads after the barrier.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, old = -1, seen = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Fetch_and_op(&v, &old, MPI_INT, 1, 1, MPI_SUM, win); /* [A] */
        MPI_Win_unlock(1, win);
    } else {
        seen = buf[1]; /* [B] */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: 1 or 11: %d\n", seen == 1 || seen == 11);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
