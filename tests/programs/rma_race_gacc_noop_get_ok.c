/* ordex-expect: ranks=3 clean */
/*
 * rma_race_gacc_noop_get_ok.c - in one fence epoch rank 0 does a
 * get_accumulate with MPI_NO_OP on an int of rank 2's window (an atomic
 * read, MPI 3.1 11.3.4) and rank 1 gets the same int.  Two reads do not
 * conflict (11.7.1): no race.  Both read the 5 rank 2 stored before the
 * first fence.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v = 0, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        buf[1] = 5;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get_accumulate(&v, 1, MPI_INT, &got, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_NO_OP, win);
    if (rank == 1)
        MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank < 2)
        printf("rank %d: got %d\n", rank, got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
