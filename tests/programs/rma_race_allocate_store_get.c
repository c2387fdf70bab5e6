/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_allocate_store_get.c - a window from MPI_Win_allocate: rank 0
 * gets int 1 of rank 1's window memory under MPI_Win_lock_all while rank 1
 * stores into that int, with nothing ordering the two.  The get may read
 * the old or the new value (MPI 3.1 11.7): a data race.  The twin
 * rma_race_allocate_store_get_ok.c stores before a barrier that precedes
 * the get.
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
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_unlock_all(win);
        printf("rank 0: 0 or 5: %d\n", got == 0 || got == 5);
    } else {
        mem[1] = 5; /* [B] */
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
