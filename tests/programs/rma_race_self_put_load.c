/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_self_put_load.c - in one fence epoch rank 0 puts to int 1 of its
 * own window and loads that int before the closing fence.  A put to the
 * calling process's own window is an RMA operation like any other: it
 * completes at the fence, and a load of its target location in the same
 * epoch is erroneous (MPI 3.1 11.7), a data race.  The twin
 * rma_race_self_put_load_ok.c loads after the fence.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, seen = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, win); /* [A] */
        seen = buf[1];                                  /* [B] */
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: 0 or 10: %d\n", seen == 0 || seen == 10);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
