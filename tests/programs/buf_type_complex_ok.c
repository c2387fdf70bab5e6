/* ordex-expect: ranks=2 clean */
/*
 * buf_type_complex_ok.c - the correct twin of buf_type_complex.c: sends the
 * values as 2 x MPI_C_DOUBLE_COMPLEX.
 */
#include <complex.h>
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double complex x[2];
    if (rank == 0) {
        x[0] = 1.0 + 2.0 * I;
        x[1] = 3.0;
        MPI_Send(x, 2, MPI_C_DOUBLE_COMPLEX, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        double complex y[2];
        MPI_Recv(y, 2, MPI_C_DOUBLE_COMPLEX, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
