/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_load_cas_lock.c - rank 0 calls MPI_Compare_and_swap on int 1 of
 * rank 1's window under an exclusive lock on rank 1, while rank 1 loads
 * that int without any lock.  The exclusive lock does not exclude the
 * target's own loads; the load may see the value before or after the swap
 * (MPI 3.1 11.7): a data race.  The twin rma_race_load_cas_lock_ok.c has
 * rank 1 load under a shared lock of its own window.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, cmp = 1, old = -1, seen = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Compare_and_swap(&v, &cmp, &old, MPI_INT, 1, 1, win); /* [A] */
        MPI_Win_unlock(1, win);
    } else {
        seen = buf[1]; /* [B] */
        printf("rank 1: 1 or 10: %d\n", seen == 1 || seen == 10);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
