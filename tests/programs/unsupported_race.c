/*
 * unsupported_race.c - rank 0 receives from MPI_ANY_SOURCE the ranks of
 * ranks 1 and 2; only when rank 2's message comes first does it call
 * MPI_Open_port (line OPEN_PORT), which ordex does not implement.
 *
 * Under explore (3 ranks) the ordering that delivers rank 2's message
 * first reports the finding "rank 0 called MPI_Open_port, which ordex does
 * not implement" at OPEN_PORT, exit status 2; the other ordering runs to
 * its end ("rank 0: first 1").  Replaying the finding's trace reproduces
 * it.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int first, second;
        MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&second, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (first == 2) {
            char port[MPI_MAX_PORT_NAME];
            MPI_Open_port(MPI_INFO_NULL, port); /* OPEN_PORT */
            MPI_Close_port(port);
        }
        printf("rank 0: first %d\n", first);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
