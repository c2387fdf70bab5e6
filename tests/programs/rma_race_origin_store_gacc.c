/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_origin_store_gacc.c - in a PSCW access epoch rank 0 calls
 * MPI_Get_accumulate (MPI_SUM) on int 1 of rank 1's window from v, and
 * stores into v before MPI_Win_complete.  The origin buffer must not change
 * until the operation completes at the origin (MPI 3.1 11.3.4, 11.5.2): a
 * data race between the operation and the store.  The twin
 * rma_race_origin_store_gacc_ok.c stores after MPI_Win_complete.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v = 10, old = -1, peer;
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
    } else {
        MPI_Win_start(group, 0, win);
        /* [A] */ MPI_Get_accumulate(&v, 1, MPI_INT, &old, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM,
                                     win);
        v = 20; /* [B] */
        MPI_Win_complete(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
