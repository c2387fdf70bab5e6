/* ordex-expect: ranks=3 race=A,A */
/*
 * rma_race_pscw_complete.c - rank 2 exposes its window to ranks 0 and 1 in
 * one post/wait epoch.  Rank 0 puts to an int, ends its access epoch with
 * MPI_Win_complete and then sends a message to rank 1, which puts to the
 * same int only after receiving it.  MPI_Win_complete completes the put at
 * the origin only; it is complete at the target when rank 2's MPI_Win_wait
 * returns (MPI 3.1 11.5.2).  So the message does not order the first put's
 * effect at rank 2 with the second put: a data race.  The twin
 * rma_race_pscw_complete_ok.c lets rank 2 wait for rank 0 before it
 * exposes the window to rank 1.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, origins[2] = {0, 1}, target = 2, token = 0;
    MPI_Group world, group;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Group_incl(world, rank == 2 ? 2 : 1, rank == 2 ? origins : &target, &group);
    if (rank == 2) {
        MPI_Win_post(group, 0, win);
        MPI_Win_wait(win);
    } else {
        if (rank == 1)
            MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Win_start(group, 0, win);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_complete(win);
        if (rank == 0)
            MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
