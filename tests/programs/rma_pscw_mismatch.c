/*
 * rma_pscw_mismatch.c - start and post groups that do not match: rank 0
 * exposes its window to rank 2 only, but rank 1 starts an access epoch to
 * rank 0 as well.  Rank 1's MPI_Win_complete waits for a post that never
 * names it (MPI 3.1 11.5.2): ordex reports the deadlock, and the blocked
 * call says that rank 0's MPI_Win_post leaves rank 1 out of its group.
 */
#include <mpi.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, buf = 0, v = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Win win;
    MPI_Win_create(&buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        int two = 2;
        MPI_Group_incl(world, 1, &two, &g); /* exposes to rank 2 only */
        MPI_Win_post(g, 0, win);            /* [POST] */
        MPI_Win_wait(win);
    } else if (rank == 1) {
        int zero = 0;
        MPI_Group_incl(world, 1, &zero, &g);
        MPI_Win_start(g, 0, win); /* rank 0 never posts for rank 1 */
        MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_complete(win); /* [COMPLETE] */
    } else {
        int zero = 0;
        MPI_Group_incl(world, 1, &zero, &g);
        MPI_Win_start(g, 0, win);
        MPI_Win_complete(win);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
