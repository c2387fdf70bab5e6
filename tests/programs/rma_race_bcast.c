/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_bcast.c - under MPI_Win_lock_all, rank 0 puts to an int of rank
 * 2's window and flushes; then all ranks join an MPI_Bcast rooted at rank
 * 1, after which rank 1 puts to the same int.  A broadcast carries data
 * from its root only: it orders the root's earlier calls before the other
 * ranks' later ones, not rank 0's flush before rank 1's put (MPI 3.1 5.1:
 * collectives need not synchronise).  A data race.  The twin
 * rma_race_bcast_ok.c roots the broadcast at rank 0, the first writer.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, token = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_flush(2, win);
    }
    MPI_Bcast(&token, 1, MPI_INT, 1, MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
