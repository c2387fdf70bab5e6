/* ordex-expect: ranks=2 clean */
/*
 * rma_race_load_put_flush_ok.c - twin of rma_race_load_put_flush_local.c:
 * under MPI_Win_lock_all rank 0 puts to int 1 of rank 1's window and calls
 * MPI_Win_flush, which completes the put at the target (MPI 3.1 11.5.4);
 * after a barrier rank 1 loads the int.  Ordered: no race, rank 1 reads 10.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_flush(1, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d\n", buf[1]);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
