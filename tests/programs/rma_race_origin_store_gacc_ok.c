/* ordex-expect: ranks=2 clean */
/*
 * rma_race_origin_store_gacc_ok.c - twin of rma_race_origin_store_gacc.c:
 * rank 0 calls MPI_Get_accumulate (MPI_SUM) on int 1 of rank 1's window
 * from v in a PSCW access epoch and stores into v after MPI_Win_complete,
 * which completes the operation at the origin (MPI 3.1 11.5.2).  No race:
 * rank 0 fetched 1 and rank 1 ends with 11.
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
        printf("rank 1: %d\n", buf[1]);
    } else {
        MPI_Win_start(group, 0, win);
        MPI_Get_accumulate(&v, 1, MPI_INT, &old, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_complete(win);
        v = 20;
        printf("rank 0: %d\n", old);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
