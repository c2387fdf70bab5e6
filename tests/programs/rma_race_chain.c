/* ordex-expect: ranks=4 race=A,B */
/*
 * rma_race_chain.c - under MPI_Win_lock_all, rank 0 puts to an int of rank
 * 3's window and flushes, then sends a token to rank 2; rank 2 forwards a
 * token to rank 1, but before it receives rank 0's, and rank 1 puts to the
 * same int after receiving it.  The chain is broken at rank 2: nothing
 * orders rank 0's flush before rank 1's put (MPI 3.1 11.7), a data race.
 * The twin rma_race_chain_ok.c forwards the token after receiving it.
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
        MPI_Put(&v, 1, MPI_INT, 3, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_flush(3, win);
        MPI_Send(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Put(&v, 1, MPI_INT, 3, 1, 1, MPI_INT, win); /* [B] */
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
