/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_dynamic.c - rank 2 attaches an array to a dynamic window and
 * broadcasts its address; under MPI_Win_lock_all ranks 0 and 1 put to the
 * same int of it, each completing with MPI_Win_flush.  Memory attached to
 * a dynamic window is window memory like any other (MPI 3.1 11.2.4): two
 * unordered puts to one location, a data race.  The twin
 * rma_race_dynamic_ok.c puts to two different ints.
 */
#include <mpi.h>

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
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 2, base + sizeof(int), 1, MPI_INT, win); /* [A] */
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, base + sizeof(int), 1, MPI_INT, win); /* [B] */
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2)
        MPI_Win_detach(win, mem);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
