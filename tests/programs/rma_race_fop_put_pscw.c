/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_fop_put_pscw.c - rank 2 exposes its window to ranks 0 and 1 in
 * one post/wait epoch; rank 0 does a fetch_and_op (MPI_SUM) on an int and
 * rank 1 puts to it.  Nothing orders the two access epochs, and a put is
 * not atomic with a fetch_and_op (MPI 3.1 11.7.1): a data race.  The twin
 * rma_race_fop_put_pscw_ok.c exposes the window to one origin at a time.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = 0, origins[2] = {0, 1}, target = 2;
    MPI_Group world, group;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 2) {
        MPI_Group_incl(world, 2, origins, &group);
        MPI_Win_post(group, 0, win);
        MPI_Win_wait(win);
    } else {
        MPI_Group_incl(world, 1, &target, &group);
        MPI_Win_start(group, 0, win);
        if (rank == 0)
            MPI_Fetch_and_op(&v, &got, MPI_INT, 2, 1, MPI_SUM, win); /* [A] */
        else
            MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
        MPI_Win_complete(win);
    }
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
