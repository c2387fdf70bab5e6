/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_vector_origin.c - in one fence epoch rank 0 gets four ints from
 * rank 1 and four from rank 2 into one local array through a strided
 * origin type (every other int), the first from int 0 and the second from
 * int 2.  Both gets write ints 2, 4 and 6 of the array before the fence
 * completes them: a data race at the origin (MPI 3.1 11.3).  The twin
 * rma_race_vector_origin_ok.c interleaves them from ints 0 and 1.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, x[10] = {0};
    MPI_Datatype every_other;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Get(&x[0], 1, every_other, 1, 0, 4, MPI_INT, win); /* [A] */
        MPI_Get(&x[2], 1, every_other, 2, 0, 4, MPI_INT, win); /* [B] */
    }
    MPI_Win_fence(0, win);
    MPI_Type_free(&every_other);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
