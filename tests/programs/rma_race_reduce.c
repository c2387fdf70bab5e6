/* ordex-expect: ranks=4 race=A,B */
/*
 * rma_race_reduce.c - under MPI_Win_lock_all, rank 0 puts to an int of rank
 * 3's window and flushes; all ranks then reduce to root 1, after which rank
 * 2 puts to the same int.  A reduction carries data to its root only: it
 * orders rank 0's flush before what the root does next, not before what
 * rank 2 does (MPI 3.1 5.1).  A data race.  The twin rma_race_reduce_ok.c
 * lets the root put.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, sum = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 3, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_flush(3, win);
    }
    MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD);
    if (rank == 2)
        MPI_Put(&v, 1, MPI_INT, 3, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
