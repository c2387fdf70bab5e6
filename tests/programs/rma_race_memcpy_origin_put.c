/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_memcpy_origin_put.c - under MPI_Win_lock_all rank 0 puts 8 ints
 * from its array out to rank 1's window and, before the put completes
 * locally, refills the array with memcpy.  The origin buffer of a pending
 * put must not be modified (MPI 3.1 11.3): a data race between the put and
 * the memcpy.  The twin rma_race_memcpy_origin_put_ok.c refills it after
 * MPI_Win_flush_local.
 */
#include <mpi.h>
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
        MPI_Put(out, 8, MPI_INT, 1, 0, 8, MPI_INT, win); /* [A] */
        memcpy(out, next, sizeof out);                   /* [B] */
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
