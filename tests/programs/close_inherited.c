/*
 * close_inherited.c - a program that closes the descriptors it inherited
 * (3 to 255) after MPI_Init, then has a wildcard race: rank 0 receives
 * from ranks 1 and 2 with MPI_ANY_SOURCE and prints the order.
 *
 * ordex explore -n 3: no error; the outcome depends on the ordering (2
 * outcomes per pass).  The descriptors ordex keeps for itself (a
 * distributed exploration's sockets, for one) are out of the program's
 * reach, so `mpiexec.mpich -n 2 ordex explore --distributed -n 3` gives
 * the same.
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    for (int fd = 3; fd < 256; fd++)
        close(fd);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int a, b;
        MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: %d then %d\n", a, b);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
