/* ordex-expect: ranks=3 clean */
/*
 * rma_race_send_backwards_ok.c - twin of rma_race_send_backwards.c: rank 1
 * sends with MPI_Ssend, which completes only after the matching receive
 * has started (MPI 3.1 3.4), and rank 0 posts that receive after its put
 * and flush.  So the flush happens before rank 1's put: no race; rank 2
 * ends with 2.
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
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_flush(2, win);
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Ssend(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Finalize();
    return 0;
}
