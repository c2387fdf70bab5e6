/* ordex-expect: ranks=3 clean */
/*
 * rma_race_bcast_ok.c - twin of rma_race_bcast.c: the broadcast after rank
 * 0's put and flush is rooted at rank 0, so every other rank's return from
 * it follows rank 0's flush (the data flows from the root).  Rank 1's put
 * is ordered after the first: no race; rank 2 ends with 2.
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
    }
    MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Finalize();
    return 0;
}
