/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_cas_pscw.c - rank 1 exposes its window to rank 0 with
 * MPI_Win_post and, while the exposure epoch is open, stores into int 1;
 * rank 0 calls MPI_Compare_and_swap on that int in its start/complete
 * epoch.  Compare-and-swap is atomic only with other accumulates, not with
 * the target's stores (MPI 3.1 11.7.1): a data race.  The twin
 * rma_race_store_cas_pscw_ok.c stores before MPI_Win_post.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 1, 0, 0}, v, cmp = 1, old = -1, peer;
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
        buf[1] = 5; /* [B] */
        MPI_Win_wait(win);
    } else {
        MPI_Win_start(group, 0, win);
        MPI_Compare_and_swap(&v, &cmp, &old, MPI_INT, 1, 1, win); /* [A] */
        MPI_Win_complete(win);
        printf("rank 0: 1 or 5: %d\n", old == 1 || old == 5);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
