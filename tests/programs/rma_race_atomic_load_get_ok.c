/* ordex-expect: ranks=2 clean */
/*
 * rma_race_atomic_load_get_ok.c - twin of rma_race_atomic_store_acc.c: in
 * one fence epoch rank 0 gets int 1 of rank 1's window while rank 1 reads
 * the int with a C11 atomic load.  Both only read (MPI 3.1 11.7): no race.
 * Both see 7.
 */
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, got = -1, seen = -1;
    _Atomic int buf[4] = {0, 7, 0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
    else
        seen = atomic_load(&buf[1]);
    MPI_Win_fence(0, win);
    printf("rank %d: %d\n", rank, rank == 0 ? got : seen);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
