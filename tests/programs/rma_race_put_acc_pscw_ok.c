/* ordex-expect: ranks=3 clean */
/*
 * rma_race_put_acc_pscw_ok.c - twin of rma_race_put_acc_pscw.c: rank 2
 * exposes its window to rank 0 first and, after MPI_Win_wait, to rank 1.
 * Rank 0's complete happens before rank 2's wait returns, which happens
 * before its second post, which rank 1's start matches (MPI 3.1 11.5.2):
 * the put is complete at the target before the accumulate starts.  Rank 2
 * prints 1 + 2 = 3.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, first = 0, second = 1, target = 2;
    MPI_Group world, group;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 2) {
        for (int k = 0; k < 2; k++) {
            MPI_Group_incl(world, 1, k == 0 ? &first : &second, &group);
            MPI_Win_post(group, 0, win);
            MPI_Win_wait(win);
            MPI_Group_free(&group);
        }
        printf("rank 2: %d\n", buf[1]);
    } else {
        MPI_Group_incl(world, 1, &target, &group);
        MPI_Win_start(group, 0, win);
        if (rank == 0)
            MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        else
            MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_complete(win);
        MPI_Group_free(&group);
    }
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
