/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_allocate.c - a window from MPI_Win_allocate; under shared locks
 * on rank 2, rank 0 accumulates (MPI_SUM) two ints at ints 0-1 of rank 2's
 * window and rank 1 gets two ints at ints 1-2.  They overlap at int 1,
 * where a get and an accumulate conflict (MPI 3.1 11.7.1): a data race.
 * The twin rma_race_allocate_ok.c gets ints 2-3.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, *mem, v[2], got[2];
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
            MPI_Accumulate(v, 2, MPI_INT, 2, 0, 2, MPI_INT, MPI_SUM, win); /* [A] */
        else
            MPI_Get(got, 2, MPI_INT, 2, 1, 2, MPI_INT, win); /* [B] */
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
