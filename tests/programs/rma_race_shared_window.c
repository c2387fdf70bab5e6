/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shared_window.c - a window from MPI_Win_allocate_shared; in one
 * fence epoch ranks 0 and 1 put (through MPI_Put, not by stores) to the
 * same int of rank 2's segment.  Shared memory changes nothing for RMA
 * calls (MPI 3.1 11.2.3): two unordered puts to one location, a data race.
 * The twin rma_race_shared_window_ok.c puts in two epochs.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, *seg, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &seg,
                            &win);
    seg[1] = 0;
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
