/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_flush_local.c - under MPI_Win_lock_all, rank 0 puts to an int of
 * rank 2's window and calls MPI_Win_flush_local(2); after a barrier rank 1
 * puts to the same int.  flush_local completes the put at the origin only
 * (its buffer may be reused), not at the target (MPI 3.1 11.5.4): the first
 * put may land after the second, a data race.  The twin
 * rma_race_flush_local_ok.c calls MPI_Win_flush instead.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_flush_local(2, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
