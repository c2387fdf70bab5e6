/* ordex-expect: ranks=2 clean */
/*
 * rma_race_dynamic_store_put_ok.c - twin of rma_race_dynamic_store_put.c:
 * rank 0 puts to int 1 of an array that rank 1 attached to a dynamic
 * window, under MPI_Win_lock_all; the unlock completes the put at the
 * target (MPI 3.1 11.5.3) and a barrier orders rank 1's store after it.
 * No race: rank 1 reads 10, then holds 5.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, mem[4] = {0, 0, 0, 0}, v;
    MPI_Aint base = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_attach(win, mem, sizeof mem);
        MPI_Get_address(mem, &base);
    }
    MPI_Bcast(&base, 1, MPI_AINT, 1, MPI_COMM_WORLD);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, base + sizeof(int), 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        printf("rank 1: %d\n", mem[1]);
        mem[1] = 5;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Win_detach(win, mem);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
