/* ordex-expect: ranks=2 clean */
/*
 * rma_race_memcpy_origin_put_ok.c - twin of rma_race_memcpy_origin_put.c:
 * under MPI_Win_lock_all rank 0 puts 8 ints from its array out to rank 1's
 * window, calls MPI_Win_flush_local (the origin buffer may be reused, MPI
 * 3.1 11.5.4) and only then refills the array with memcpy.  No race: rank 1
 * reads 0 ... 7 after the barrier.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, buf[8], out[8], next[8];
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 8; i++) {
        buf[i] = 0;
        out[i] = i;
        next[i] = 10 + i;
    }
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(out, 8, MPI_INT, 1, 0, 8, MPI_INT, win);
        MPI_Win_flush_local(1, win);
        memcpy(out, next, sizeof out);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        printf("rank 1: %d %d %d\n", buf[0], buf[3], buf[7]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
