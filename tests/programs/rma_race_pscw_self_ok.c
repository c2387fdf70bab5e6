/* ordex-expect: ranks=2 clean */
/*
 * rma_race_pscw_self_ok.c - twin of rma_race_pscw_self.c: rank 1 exposes
 * its window to rank 0 only; after MPI_Win_wait has completed rank 0's put
 * there (MPI 3.1 11.5.2) it exposes the window to itself and puts to the
 * same int.  Ordered: no race; rank 1 ends with its own 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, zero = 0, one = 1;
    MPI_Group world, first, target;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &zero, &first);
    MPI_Group_incl(world, 1, &one, &target);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 0) {
        MPI_Win_start(target, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(first, 0, win);
        MPI_Win_wait(win);
        MPI_Win_post(target, 0, win);
        MPI_Win_start(target, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        printf("rank 1: %d\n", buf[2]);
    }
    MPI_Group_free(&target);
    MPI_Group_free(&first);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
