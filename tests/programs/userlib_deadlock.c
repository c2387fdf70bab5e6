/*
 * userlib_deadlock.c - a deadlock inside the user's own shared library.
 *
 * Linked with the library of userlib_lib.c (see userlib.c).  Every rank
 * receives from the next one through the library's userlib_recv and nobody
 * sends: [deadlock], located in the library's source, at userlib_lib.c's
 * FAULT line (it was "userlib_recv (libuserlib.so)", without a line).
 */
#include <mpi.h>

int userlib_recv(int source);

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    userlib_recv((rank + 1) % size);
    MPI_Finalize();
    return 0;
}
