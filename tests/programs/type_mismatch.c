/*
 * type_mismatch.c - rank 0 sends 4 MPI_INT (16 bytes), rank 1 receives 2
 * MPI_DOUBLE (also 16 bytes): the byte counts agree but the type signatures
 * do not, which MPI forbids.
 *
 * ordex must report: [mpi_error] on rank 1 about the type signatures (MPI_INT
 * sent, MPI_DOUBLE received), at type_mismatch.c on the line marked FAULT (the
 * MPI_Recv); exit status 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int ints[4] = {1, 2, 3, 4};
        MPI_Send(ints, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        double d[2];
        MPI_Recv(d, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* FAULT */
        printf("rank 1: %g %g\n", d[0], d[1]);
    }
    MPI_Finalize();
    return 0;
}
