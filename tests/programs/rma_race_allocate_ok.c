/* ordex-expect: ranks=3 clean */
/*
 * rma_race_allocate_ok.c - twin of rma_race_allocate.c: in a window from
 * MPI_Win_allocate, under shared locks on rank 2, rank 0 accumulates into
 * ints 0-1 and rank 1 gets ints 2-3.  Disjoint bytes: no race.  Rank 1
 * gets 2 3; after a barrier rank 2 holds 1 2 2 3.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mem, v[2], got[2] = {-1, -1};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int i = 0; i < 4; i++)
        mem[i] = i;
    MPI_Barrier(MPI_COMM_WORLD);
    v[0] = v[1] = rank + 1;
    if (rank < 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        if (rank == 0)
            MPI_Accumulate(v, 2, MPI_INT, 2, 0, 2, MPI_INT, MPI_SUM, win);
        else
            MPI_Get(got, 2, MPI_INT, 2, 2, 2, MPI_INT, win);
        MPI_Win_unlock(2, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d %d\n", got[0], got[1]);
    if (rank == 2)
        printf("rank 2: %d %d %d %d\n", mem[0], mem[1], mem[2], mem[3]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
