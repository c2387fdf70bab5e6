/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_load_put_pscw_complete.c - rank 0 puts to int 1 of rank 1's
 * window in a start/complete epoch and, after MPI_Win_complete, sends rank 1
 * a message; rank 1, whose exposure epoch is still open, loads the int as
 * soon as the message arrives and calls MPI_Win_wait only afterwards.
 * MPI_Win_complete completes the put at the origin only; at the target it
 * is complete when MPI_Win_wait returns (MPI 3.1 11.5.2): the load races
 * with the put.  The twin rma_race_load_put_pscw_complete_ok.c loads after
 * MPI_Win_wait.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, seen = -1, token = 0, peer;
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
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        seen = buf[1]; /* [B] */
        MPI_Win_wait(win);
        printf("rank 1: 0 or 10: %d\n", seen == 0 || seen == 10);
    } else {
        MPI_Win_start(group, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_complete(win);
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
