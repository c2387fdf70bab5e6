/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_C_FLOAT_COMPLEX,complex+double */
/*
 * buf_type_complex.c - double complex values sent as MPI_C_FLOAT_COMPLEX:
 * its element 0 is 8 bytes on a 16-byte complex double. The twin
 * buf_type_complex_ok.c sends the values as 2 x MPI_C_DOUBLE_COMPLEX.
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
        MPI_Send(x, 4, MPI_C_FLOAT_COMPLEX, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
