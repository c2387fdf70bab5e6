/* ordex-expect: ranks=2 clean */
/*
 * rma_race_load_gacc_noop_ok.c - in one fence epoch rank 0 reads int 1 of
 * rank 1's window with MPI_Get_accumulate and MPI_NO_OP while rank 1 loads
 * the same int.  With MPI_NO_OP the operation only reads the target (MPI
 * 3.1 11.3.4), and reads do not conflict (11.7): no race.  Both see 7.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 7, 0, 0}, v = 0, old = -1, seen = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Get_accumulate(&v, 1, MPI_INT, &old, 1, MPI_INT, 1, 1, 1, MPI_INT, MPI_NO_OP, win);
    else
        seen = buf[1];
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: %d\n", old);
    else
        printf("rank 1: %d\n", seen);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
