/* ordex-expect: ranks=3 clean */
/*
 * rma_race_fop_put_pscw_ok.c - twin of rma_race_fop_put_pscw.c: rank 2
 * exposes its window to rank 1 first and, after MPI_Win_wait (which
 * completes rank 1's put at rank 2, MPI 3.1 11.5.2), to rank 0.  The put
 * happens before the fetch_and_op: no race.  Rank 0 fetches 2 and rank 2
 * ends with 3.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = -1, order[2] = {1, 0}, target = 2;
    MPI_Group world, group;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 2) {
        for (int k = 0; k < 2; k++) {
            MPI_Group_incl(world, 1, &order[k], &group);
            MPI_Win_post(group, 0, win);
            MPI_Win_wait(win);
            MPI_Group_free(&group);
        }
        printf("rank 2: %d\n", buf[1]);
    } else {
        MPI_Group_incl(world, 1, &target, &group);
        MPI_Win_start(group, 0, win);
        if (rank == 0)
            MPI_Fetch_and_op(&v, &got, MPI_INT, 2, 1, MPI_SUM, win);
        else
            MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Group_free(&group);
        if (rank == 0)
            printf("rank 0: fetched %d\n", got);
    }
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
