/* ordex-expect: ranks=3 clean */
/*
 * rma_race_shared_window_ok.c - twin of rma_race_shared_window.c: in a
 * window from MPI_Win_allocate_shared rank 0 puts to an int of rank 2's
 * segment in one fence epoch and rank 1 in the next (MPI 3.1 11.5.1).
 * Ordered: no race.  Rank 2 ends with 2, which rank 0 also reads through
 * the pointer MPI_Win_shared_query gives.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *seg, *two, v, unit;
    MPI_Aint size;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &seg,
                            &win);
    MPI_Win_shared_query(win, 2, &size, &unit, &two);
    seg[1] = 0;
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0 || rank == 2)
        printf("rank %d: %d\n", rank, two[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
