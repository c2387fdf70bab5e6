/* ordex-expect: ranks=3 clean */
/*
 * rma_race_load_get_lockall_ok.c - ranks 0 and 1 get int 1 of rank 2's
 * window under MPI_Win_lock_all while rank 2 loads it, with nothing
 * ordering them.  Gets and loads only read: they never conflict (MPI 3.1
 * 11.7), so no race.  Every rank sees 7.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 7, 0, 0}, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank < 2) {
        MPI_Win_lock_all(0, win);
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
    } else {
        got = buf[1];
    }
    printf("rank %d: %d\n", rank, got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
