/* ordex-expect: ranks=3 clean */
/*
 * rma_race_dynamic_ok.c - twin of rma_race_dynamic.c: ranks 0 and 1 put
 * to ints 0 and 1 of the array that rank 2 attached to a dynamic window.
 * Disjoint bytes: no race.  After the barrier rank 2 prints 1 2.
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
    if (rank == 2) {
        MPI_Win_attach(win, mem, sizeof mem);
        MPI_Get_address(mem, &base);
    }
    MPI_Bcast(&base, 1, MPI_AINT, 2, MPI_COMM_WORLD);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank < 2)
        MPI_Put(&v, 1, MPI_INT, 2, base + rank * sizeof(int), 1, MPI_INT, win);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) {
        printf("rank 2: %d %d\n", mem[0], mem[1]);
        MPI_Win_detach(win, mem);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
