/* ordex-expect: ranks=2 clean */
/*
 * rma_race_load_put_pscw_complete_ok.c - twin of
 * rma_race_load_put_pscw_complete.c: rank 0 puts to int 1 of rank 1's
 * window in a start/complete epoch and then sends rank 1 a message; rank 1
 * receives it, calls MPI_Win_wait, which returns once the put has completed
 * at rank 1 (MPI 3.1 11.5.2), and only then loads the int.  No race: rank
 * 1 reads 10.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, token = 0, peer;
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
        MPI_Win_wait(win);
        printf("rank 1: %d\n", buf[1]);
    } else {
        MPI_Win_start(group, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
