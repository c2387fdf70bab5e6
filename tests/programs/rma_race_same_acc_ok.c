/* ordex-expect: ranks=2 clean */
/*
 * rma_race_same_acc_ok.c - in one fence epoch rank 0 accumulates into the
 * same int of rank 1's window with MPI_SUM and then with MPI_REPLACE.  Two
 * ops that may not run concurrently (same_op_no_op, MPI 3.1 11.2.1), but
 * they are not concurrent: accumulates of one origin to one location are
 * ordered, by default in every combination of reads and writes (11.7.2,
 * accumulate_ordering rar,raw,war,waw).  No race; rank 1 ends with 7.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v[2] = {5, 7};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Accumulate(&v[0], 1, MPI_INT, 1, 2, 1, MPI_INT, MPI_SUM, win);
        MPI_Accumulate(&v[1], 1, MPI_INT, 1, 2, 1, MPI_INT, MPI_REPLACE, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 1)
        printf("rank 1: %d\n", buf[2]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
