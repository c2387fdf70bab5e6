/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_get_pscw.c - rank 1 exposes its window to rank 0 with
 * MPI_Win_post and, while the exposure epoch is open, stores into int 1;
 * rank 0 gets that int in its MPI_Win_start/MPI_Win_complete epoch.  The
 * get may read the location before or after the store: a store and a get
 * of one location in one exposure epoch are erroneous (MPI 3.1 11.7), a
 * data race.  The twin rma_race_store_get_pscw_ok.c stores after
 * MPI_Win_wait.
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
        buf[1] = 5; /* [B] */
        MPI_Win_wait(win);
    } else {
        MPI_Win_start(group, 0, win);
        MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_complete(win);
        printf("rank 0: 0 or 5: %d\n", got == 0 || got == 5);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
