/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_load_gacc_pscw.c - rank 1 exposes its window to rank 0 with
 * MPI_Win_post and loads int 1 while the exposure epoch is open; rank 0
 * calls MPI_Get_accumulate (MPI_SUM) on that int in its start/complete
 * epoch.  The update may come before or after the load: erroneous (MPI 3.1
 * 11.7), a data race.  The twin rma_race_load_gacc_pscw_ok.c loads after
 * MPI_Win_wait.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, old = -1, seen = -1, peer;
    MPI_Group world, group;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    peer = 1 - rank;
    MPI_Group_incl(world, 1, &peer, &group);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 1) {
        MPI_Win_post(group, 0, win);
        seen = buf[1]; /* [B] */
        MPI_Win_wait(win);
        printf("rank 1: 1 or 11: %d\n", seen == 1 || seen == 11);
    } else {
        MPI_Win_start(group, 0, win);
        /* [A] */ MPI_Get_accumulate(&v, 1, MPI_INT, &old, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM,
                                     win);
        MPI_Win_complete(win);
        printf("rank 0: %d\n", old);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
