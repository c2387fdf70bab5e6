/* ordex-expect: ranks=3 clean */
/*
 * rma_race_load_put_chain_ok.c - twin of rma_race_load_put_chain.c: rank 0
 * puts to int 1 of rank 2's window under MPI_Win_lock_all, unlocks (the put
 * is complete at rank 2, MPI 3.1 11.5.3) and then sends rank 1 a message;
 * rank 1 passes a message on to rank 2, which then loads the int.  The
 * chain orders the load after the put: no race, rank 2 reads 10.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, token = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 2: %d\n", buf[1]);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
