/* ordex-expect: ranks=4 clean */
/*
 * rma_race_chain_ok.c - twin of rma_race_chain.c: rank 0 puts to an int of
 * rank 3's window, flushes (the put is complete at rank 3, MPI 3.1
 * 11.5.4) and sends a token to rank 2, which forwards it to rank 1 after
 * receiving it; rank 1 puts to the same int after receiving.  The flush
 * happens before the second put through the chain of messages: no race.
 * Rank 3 ends with 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, token = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 3, 1, 1, MPI_INT, win);
        MPI_Win_flush(3, win);
        MPI_Send(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Put(&v, 1, MPI_INT, 3, 1, 1, MPI_INT, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (rank == 3)
        printf("rank 3: %d\n", buf[1]);
    MPI_Finalize();
    return 0;
}
