/* ordex-expect: ranks=2 clean */
/*
 * rma_race_store_cas_pscw_ok.c - twin of rma_race_store_cas_pscw.c: rank 1
 * stores 5 into int 1 of its window before MPI_Win_post, which orders the
 * store before the accesses of the origin's matching access epoch (MPI 3.1
 * 11.5.2); rank 0 then calls MPI_Compare_and_swap on the int, comparing
 * with 5.  No race: rank 0 fetches 5 and rank 1 ends with 10.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, cmp = 5, old = -1, peer;
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
        buf[1] = 5;
        MPI_Win_post(group, 0, win);
        MPI_Win_wait(win);
        printf("rank 1: %d\n", buf[1]);
    } else {
        MPI_Win_start(group, 0, win);
        MPI_Compare_and_swap(&v, &cmp, &old, MPI_INT, 1, 1, win);
        MPI_Win_complete(win);
        printf("rank 0: %d\n", old);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
