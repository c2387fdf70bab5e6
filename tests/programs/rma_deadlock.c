/*
 * rma_deadlock.c - deadlocks that involve RMA synchronisation (argv[1]); run
 * with 3 ranks.  ordex must report one [deadlock] (exit status 1) listing
 * the blocked calls with their lines:
 *   fence     rank 2 never calls the second MPI_Win_fence: ranks 0 and 1
 *             wait in MPI_Win_fence at [FENCE], rank 2 in MPI_Recv at [SKIP]
 *   wait      rank 1 posts and waits ([WAIT]) for rank 0, which puts but
 *             never calls MPI_Win_complete: it waits in MPI_Recv at [NOCOMPLETE]
 *   complete  rank 0 starts an epoch to rank 1 and completes it ([COMPLETE]),
 *             but rank 1 never posts: it waits in MPI_Recv at [NOPOST]
 *   lock      rank 0 holds the exclusive lock on rank 1 across a receive from
 *             rank 2 ([HOLD]); rank 2 asks for the same lock ([LOCK2]) before
 *             it sends: a wait-for cycle rank 0 -> rank 2 -> rank 0
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *c = argc > 1 ? argv[1] : "";
    int buf[4] = {0}, v = 1, x = 0;
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Group world, g0, g1;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int r0 = 0, r1 = 1;
    MPI_Group_incl(world, 1, &r0, &g0);
    MPI_Group_incl(world, 1, &r1, &g1);
    if (!strcmp(c, "fence")) {
        MPI_Win_fence(0, win);
        if (rank == 2)
            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [SKIP] */
        MPI_Win_fence(0, win);                                                 /* [FENCE] */
    } else if (!strcmp(c, "wait")) {
        if (rank == 0) {
            MPI_Win_start(g1, 0, win);
            MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [NOCOMPLETE] */
        } else if (rank == 1) {
            MPI_Win_post(g0, 0, win);
            MPI_Win_wait(win); /* [WAIT] */
        }
    } else if (!strcmp(c, "complete")) {
        if (rank == 0) {
            MPI_Win_start(g1, 0, win);
            MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
            MPI_Win_complete(win); /* [COMPLETE] */
        } else if (rank == 1) {
            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [NOPOST] */
        }
    } else if (!strcmp(c, "lock")) {
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [HOLD] */
            MPI_Win_unlock(1, win);
        } else if (rank == 2) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win); /* [LOCK2] */
            MPI_Win_unlock(1, win);
            MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Group_free(&g0);
    MPI_Group_free(&g1);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
