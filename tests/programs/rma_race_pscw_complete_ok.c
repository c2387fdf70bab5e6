/* ordex-expect: ranks=3 clean */
/*
 * rma_race_pscw_complete_ok.c - twin of rma_race_pscw_complete.c: rank 0
 * puts in an access epoch matched by rank 2's first exposure epoch; rank 2's
 * MPI_Win_wait completes the put at rank 2 (MPI 3.1 11.5.2) before its
 * second MPI_Win_post, which rank 1's access epoch matches.  Ordered, no
 * race; rank 2 prints 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, target = 2;
    MPI_Group world, group;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 2) {
        for (int origin = 0; origin < 2; origin++) {
            MPI_Group_incl(world, 1, &origin, &group);
            MPI_Win_post(group, 0, win);
            MPI_Win_wait(win);
            MPI_Group_free(&group);
        }
        printf("rank 2: %d\n", buf[1]);
    } else {
        MPI_Group_incl(world, 1, &target, &group);
        MPI_Win_start(group, 0, win);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Group_free(&group);
    }
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
