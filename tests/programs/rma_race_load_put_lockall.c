/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_load_put_lockall.c - rank 0 puts to int 1 of rank 1's window in
 * a passive-target epoch (MPI_Win_lock_all ... MPI_Win_unlock_all) while
 * rank 1, with nothing to order it after the unlock, loads that int.  A
 * load of a location that a put updates, unordered with the put's remote
 * completion, is erroneous (MPI 3.1 11.7): a data race.  The twin
 * rma_race_load_put_lockall_ok.c orders the load after the unlock with a
 * barrier.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, seen = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_unlock_all(win);
    } else {
        seen = buf[1]; /* [B] */
    }
    MPI_Win_free(&win);
    if (rank == 1)
        printf("rank 1: 0 or 10: %d\n", seen == 0 || seen == 10);
    MPI_Finalize();
    return 0;
}
