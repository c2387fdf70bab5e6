/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_dynamic_store_put.c - rank 1 attaches an array to a dynamic
 * window (MPI_Win_create_dynamic, MPI_Win_attach) and sends its address to
 * rank 0, which puts to int 1 of it under MPI_Win_lock_all; rank 1 stores
 * into that int meanwhile, with nothing ordering the store and the put.
 * Attached memory is window memory (MPI 3.1 11.2.4): a store and a put of
 * one location, unordered, are a data race (11.7).  The twin
 * rma_race_dynamic_store_put_ok.c stores after a barrier that follows the
 * unlock.
 */
#include <mpi.h>

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
        MPI_Put(&v, 1, MPI_INT, 1, base + sizeof(int), 1, MPI_INT, win); /* [A] */
        MPI_Win_unlock_all(win);
    } else {
        mem[1] = 5; /* [B] */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Win_detach(win, mem);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
