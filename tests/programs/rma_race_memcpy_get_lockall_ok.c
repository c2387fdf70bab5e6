/* ordex-expect: ranks=2 clean */
/*
 * rma_race_memcpy_get_lockall_ok.c - twin of rma_race_memcpy_get_lockall.c:
 * rank 1 copies a new array into its window with memcpy before a barrier,
 * after which rank 0 gets ints 2-3 of it under MPI_Win_lock_all.  Ordered
 * (MPI 3.1 11.7): no race.  Rank 0 gets 102 103.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, buf[16], fresh[16], got[2] = {-1, -1};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 16; i++) {
        buf[i] = 0;
        fresh[i] = 100 + i;
    }
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1)
        memcpy(buf, fresh, sizeof buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Get(got, 2, MPI_INT, 1, 2, 2, MPI_INT, win);
        MPI_Win_unlock_all(win);
        printf("rank 0: %d %d\n", got[0], got[1]);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
