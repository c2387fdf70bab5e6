/*
 * unsupported_port.c - dynamic processes, which ordex does not implement:
 * every rank says it starts, then main opens a port (line OPEN_PORT),
 * accepts a connection on it (ACCEPT) and closes it.
 *
 * The program loads and runs: the ranks' first lines appear, and the first
 * call of MPI_Open_port stops the run with the finding "rank N called
 * MPI_Open_port, which ordex does not implement" at unsupported_port.c:
 * <OPEN_PORT>, exit status 2, and --json gets "verdict": "unsupported".
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: starting\n", rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm client;
    MPI_Open_port(MPI_INFO_NULL, port);                              /* OPEN_PORT */
    MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &client); /* ACCEPT */
    MPI_Close_port(port);
    printf("rank %d: connected\n", rank);
    MPI_Finalize();
    return 0;
}
