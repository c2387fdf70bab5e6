/* ordex-expect: ranks=2 clean */
/*
 * buf_vector_column_ok.c - the correct twin of buf_vector_column.c: uses 4
 * rows.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int m[4][4] = {{0}};
    MPI_Datatype column;
    MPI_Type_vector(4, 1, 4, MPI_INT, &column); /* a column: every 4th int */
    MPI_Type_commit(&column);
    if (rank == 0)
        MPI_Send(&m[0][1], 1, column, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(&m[0][1], 1, column, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&column);
    MPI_Finalize();
    return 0;
}
