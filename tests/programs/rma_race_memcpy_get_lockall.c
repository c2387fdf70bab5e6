/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_memcpy_get_lockall.c - rank 0 gets ints 2-3 of rank 1's window
 * under MPI_Win_lock_all while rank 1 copies a new array into its window
 * with memcpy, with nothing ordering the two.  memcpy writes the window's
 * bytes: a store and a get of one location, unordered (MPI 3.1 11.7), a
 * data race, reported at the memcpy.  The twin
 * rma_race_memcpy_get_lockall_ok.c copies before a barrier that precedes
 * the get.
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
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Get(got, 2, MPI_INT, 1, 2, 2, MPI_INT, win); /* [A] */
        MPI_Win_unlock_all(win);
        printf("rank 0: %d %d\n", got[0], got[1]);
    } else {
        memcpy(buf, fresh, sizeof buf); /* [B] */
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
