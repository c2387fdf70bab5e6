/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_atomic_store_acc.c - in one fence epoch rank 0 accumulates
 * (MPI_SUM) into int 1 of rank 1's window while rank 1 writes the int with
 * a C11 atomic store.  MPI's accumulates are atomic only with each other
 * (MPI 3.1 11.7.1), not with the processor's atomics: the store and the
 * accumulate conflict, a data race.  The twin rma_race_atomic_load_get_ok.c
 * only reads with an atomic load while the origin gets.
 */
#include <mpi.h>
#include <stdatomic.h>

int main(int argc, char **argv) {
    int rank, v;
    _Atomic int buf[4] = {0, 0, 0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win); /* [A] */
    else
        atomic_store(&buf[1], 5); /* [B] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
