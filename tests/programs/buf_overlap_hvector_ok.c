/* ordex-expect: ranks=2 clean */
/*
 * buf_overlap_hvector_ok.c - the correct twin of buf_overlap_hvector.c: has
 * them 4 bytes apart.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    float f[8] = {0};
    if (rank == 0) {
        float v[4] = {1, 2, 3, 4};
        MPI_Send(v, 4, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Datatype strided;
        MPI_Type_create_hvector(4, 1, 4, MPI_FLOAT, &strided);
        MPI_Type_commit(&strided);
        MPI_Recv(f, 1, strided, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
        MPI_Type_free(&strided);
    }
    MPI_Finalize();
    return 0;
}
