/* ordex-expect: ranks=2 clean */
/*
 * rma_race_allocate_store_get_ok.c - twin of rma_race_allocate_store_get.c:
 * rank 1 stores into int 1 of its MPI_Win_allocate memory before a
 * barrier, after which rank 0 gets the int under MPI_Win_lock_all.  The
 * barrier orders the store before the get (MPI 3.1 11.7): no race.  Rank 0
 * gets 5.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, *mem, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    mem[1] = 0;
    if (rank == 1)
        mem[1] = 5;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
        printf("rank 0: %d\n", got);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
