/* ordex-expect: ranks=3 clean */
/*
 * rma_race_vector_overlap_ok.c - twin of rma_race_vector_overlap.c: rank 1
 * puts through the strided type from int 1, so rank 0 writes the even ints
 * and rank 1 the odd ones.  The puts touch disjoint bytes although their
 * extents overlap: no race (MPI 3.1 11.7.1).  Rank 2 prints
 * 10 20 11 21 12 22 13 23.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[10] = {0}, v[4];
    MPI_Datatype every_other;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (int i = 0; i < 4; i++)
        v[i] = 10 * (rank + 1) + i;
    MPI_Win_fence(0, win);
    if (rank < 2)
        MPI_Put(v, 4, MPI_INT, 2, rank, 1, every_other, win);
    MPI_Win_fence(0, win);
    if (rank == 2)
        printf("rank 2: %d %d %d %d %d %d %d %d\n", buf[0], buf[1], buf[2], buf[3], buf[4], buf[5],
               buf[6], buf[7]);
    MPI_Type_free(&every_other);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
