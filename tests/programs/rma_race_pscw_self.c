/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_pscw_self.c - rank 1 exposes its window to ranks 0 and 1 and
 * opens an access epoch to itself; rank 0 and rank 1 itself both put to
 * the same int of rank 1's window.  A target's own RMA calls into its
 * exposed window are accesses like any other origin's (MPI 3.1 11.5.2):
 * the two puts are unordered, a data race.  The twin rma_race_pscw_self_ok.c
 * has rank 1 put only after MPI_Win_wait.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, both[2] = {0, 1}, one = 1;
    MPI_Group world, exposed, accessed;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 2, both, &exposed);
    MPI_Group_incl(world, 1, &one, &accessed);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 1)
        MPI_Win_post(exposed, 0, win);
    MPI_Win_start(accessed, 0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win); /* [A] */
    else
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win); /* [B] */
    MPI_Win_complete(win);
    if (rank == 1)
        MPI_Win_wait(win);
    MPI_Group_free(&accessed);
    MPI_Group_free(&exposed);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
