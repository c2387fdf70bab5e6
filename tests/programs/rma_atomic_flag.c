/*
 * rma_atomic_flag.c - notification through an atomic flag, without the
 * flush that completes the put before the flag is set.  Under
 * MPI_Win_lock_all, rank 0 puts a value into rank 2's window and sets a
 * flag there with MPI_Accumulate (MPI_REPLACE), then flushes.  Rank 1
 * polls the flag with MPI_Fetch_and_op(MPI_NO_OP) until it reads 1, then
 * gets the value.  MPI does not order a put and a later accumulate of one
 * origin to different locations (only accumulates among themselves), so
 * the put may still be in flight when the flag is seen: the get races with
 * it.  The twin rma_atomic_flag_ok.c flushes between put and flag.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v = 42, one = 1, flag = 0, got = -1, dummy = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        MPI_Accumulate(&one, 1, MPI_INT, 2, 0, 1, MPI_INT, MPI_REPLACE, win);
        MPI_Win_flush(2, win);
    }
    if (rank == 1) {
        while (!flag) {
            MPI_Fetch_and_op(&dummy, &flag, MPI_INT, 2, 0, MPI_NO_OP, win);
            MPI_Win_flush(2, win);
        }
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
        MPI_Win_flush(2, win);
        printf("rank 1 got %d\n", got);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
