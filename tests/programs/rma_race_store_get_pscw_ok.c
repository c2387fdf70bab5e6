/* ordex-expect: ranks=2 clean */
/*
 * rma_race_store_get_pscw_ok.c - twin of rma_race_store_get_pscw.c: rank 1
 * exposes its window to rank 0 with MPI_Win_post and stores into int 1
 * only after MPI_Win_wait, which returns once rank 0's get has completed
 * (MPI 3.1 11.5.2).  Ordered: no race.  Rank 0 got 0.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, got = -1, peer;
    MPI_Group world, group;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    peer = 1 - rank;
    MPI_Group_incl(world, 1, &peer, &group);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_post(group, 0, win);
        MPI_Win_wait(win);
        buf[1] = 5;
    } else {
        MPI_Win_start(group, 0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_complete(win);
        printf("rank 0: %d\n", got);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
