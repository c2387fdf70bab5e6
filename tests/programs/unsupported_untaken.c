/*
 * unsupported_untaken.c - references MPI_Open_port, which ordex does not
 * implement, only on a path a run never takes (more than 1000 arguments):
 * the program runs to its end, exit status 0, and rank 1 prints
 * "rank 1: got 42".
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1000) {
        char port[MPI_MAX_PORT_NAME];
        MPI_Open_port(MPI_INFO_NULL, port);
        MPI_Close_port(port);
    }
    if (rank == 0) {
        v = 42;
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: got %d\n", v);
    }
    MPI_Finalize();
    return 0;
}
