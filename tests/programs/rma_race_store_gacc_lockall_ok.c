/* ordex-expect: ranks=2 clean */
/*
 * rma_race_store_gacc_lockall_ok.c - twin of rma_race_store_gacc_lockall.c:
 * under MPI_Win_lock_all rank 0 calls MPI_Get_accumulate (MPI_SUM) on int 1
 * of rank 1's window, flushes it (complete at the target, MPI 3.1 11.5.4)
 * and then sends rank 1 a message; rank 1 stores into the int after the
 * message has arrived.  Ordered: no race.  Rank 0 fetched 1; rank 1 reads
 * 11 before its store.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, old = -1, token = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Get_accumulate(&v, 1, MPI_INT, &old, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_flush(1, win);
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Win_unlock_all(win);
        printf("rank 0: %d\n", old);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: %d\n", buf[1]);
        buf[1] = 5;
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
