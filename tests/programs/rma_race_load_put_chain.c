/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_load_put_chain.c - rank 0 puts to int 1 of rank 2's window
 * under MPI_Win_lock_all and sends rank 1 a message before it unlocks; rank
 * 1 passes a message on to rank 2, which then loads the int.  The chain
 * starts before the unlock that completes the put (MPI 3.1 11.5.3), so it
 * does not order the put before the load: a data race.  The twin
 * rma_race_load_put_chain_ok.c sends after the unlock.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, seen = -1, token = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Win_unlock_all(win);
    } else if (rank == 1) {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        seen = buf[1]; /* [B] */
        printf("rank 2: 0 or 10: %d\n", seen == 0 || seen == 10);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
