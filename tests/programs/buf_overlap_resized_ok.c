/* ordex-expect: ranks=2 clean */
/*
 * buf_overlap_resized_ok.c - the correct twin of buf_overlap_resized.c:
 * resizes to sizeof(double).
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double d[4] = {0};
    MPI_Datatype half;
    MPI_Type_create_resized(MPI_DOUBLE, 0, sizeof(double), &half);
    MPI_Type_commit(&half);
    if (rank == 0)
        MPI_Send(d, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(d, 2, half, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    MPI_Type_free(&half);
    MPI_Finalize();
    return 0;
}
