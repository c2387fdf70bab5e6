/* ordex-expect: ranks=3 clean */
/*
 * rma_race_vector_origin_ok.c - twin of rma_race_vector_origin.c: the two
 * strided gets land at ints 0, 2, 4, 6 and 1, 3, 5, 7 of rank 0's array:
 * disjoint bytes, no race.  Rank 0 prints 10 20 11 21 12 22 13 23.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4], x[10] = {0};
    MPI_Datatype every_other;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 4; i++)
        buf[i] = 10 * rank + i;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Get(&x[0], 1, every_other, 1, 0, 4, MPI_INT, win);
        MPI_Get(&x[1], 1, every_other, 2, 0, 4, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: %d %d %d %d %d %d %d %d\n", x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
    MPI_Type_free(&every_other);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
