/* ordex-expect: ranks=3 clean */
/*
 * rma_race_acc_contig_ok.c - in one fence epoch rank 0 accumulates (MPI_SUM)
 * two ints of rank 2's window as one element of a contiguous derived type,
 * and rank 1 accumulates (MPI_SUM) a single MPI_INT into the second of
 * them.  Atomicity is per element of the predefined basic type (MPI 3.1
 * 11.7.1): both are MPI_INT, same op, no race.  Rank 2 ends with 1 3.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v[2];
    MPI_Datatype two;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v[0] = v[1] = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Accumulate(v, 1, two, 2, 0, 1, two, MPI_SUM, win);
    if (rank == 1)
        MPI_Accumulate(v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 2)
        printf("rank 2: %d %d\n", buf[0], buf[1]);
    MPI_Type_free(&two);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
