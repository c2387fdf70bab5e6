/* ordex-expect: ranks=3 clean */
/*
 * rma_race_get_put_lockall_ok.c - twin of rma_race_get_put_lockall.c:
 * after MPI_Win_flush completed its get at rank 2, rank 0 sends a message
 * to rank 1, which puts only after receiving it.  The flush, the send, the
 * receive and the put are ordered (MPI 3.1 11.5.4 and 11.7): no race, and
 * rank 0 got the initial 0.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = -1, token = 7;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_flush(2, win);
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Win_unlock_all(win);
        printf("rank 0: got %d\n", got);
    } else if (rank == 1) {
        MPI_Win_lock_all(0, win);
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
