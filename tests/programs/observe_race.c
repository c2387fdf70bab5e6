/*
 * observe_race.c - a value registered with ordex_observe differs between
 * orderings while the output does not.
 *
 * ordex explore -n 3: WARNING [message_race] with 2 different outcomes (rank 0
 * computes a*10+b from two wildcard receives: 12 or 21); no output differs.
 */
#include <mpi.h>
#include <ordex.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ordex_observe("v", &v, sizeof v);
    if (rank == 0) {
        int a, b;
        MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        v = a * 10 + b;
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
