/* ordex-expect: ranks=2 clean */
/*
 * buf_type_float_int_ok.c - the correct twin of buf_type_float_int.c: sends
 * the values as 3 x MPI_FLOAT.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    float x[3];
    if (rank == 0) {
        for (int i = 0; i < 3; i++)
            x[i] = i * 0.5f;
        MPI_Send(x, 3, MPI_FLOAT, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        float y[3];
        MPI_Recv(y, 3, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
