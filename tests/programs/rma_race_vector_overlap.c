/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_vector_overlap.c - in one fence epoch ranks 0 and 1 each put
 * four ints into rank 2's window through a strided target type (every
 * other int), rank 0 from int 0 and rank 1 from int 2.  Their strides
 * overlap at ints 2, 4 and 6: two puts to the same locations, a data race
 * (MPI 3.1 11.7.1).  The twin rma_race_vector_overlap_ok.c starts rank 1
 * at int 1, interleaving the two without overlap.
 */
#include <mpi.h>

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
    if (rank == 0)
        MPI_Put(v, 4, MPI_INT, 2, 0, 1, every_other, win); /* [A] */
    if (rank == 1)
        MPI_Put(v, 4, MPI_INT, 2, 2, 1, every_other, win); /* [B] */
    MPI_Win_fence(0, win);
    MPI_Type_free(&every_other);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
