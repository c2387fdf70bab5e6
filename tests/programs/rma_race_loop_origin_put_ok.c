/* ordex-expect: ranks=2 clean */
/*
 * rma_race_loop_origin_put_ok.c - twin of rma_race_loop_origin_put.c: under
 * MPI_Win_lock_all rank 0 sends four values to rank 1 from int 0 of its own
 * window, and each round's MPI_Win_flush_local completes the put at the
 * origin (MPI 3.1 11.5.4) before the next round stores there.  No race:
 * after the barrier rank 1 reads 10 11 12 13.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        for (int i = 0; i < 4; i++) {
            buf[0] = 10 + i;
            MPI_Put(&buf[0], 1, MPI_INT, 1, i, 1, MPI_INT, win);
            MPI_Win_flush_local(1, win);
        }
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d %d %d %d\n", buf[0], buf[1], buf[2], buf[3]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
