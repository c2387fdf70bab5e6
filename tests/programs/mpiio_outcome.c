/*
 * mpiio_outcome.c - the file is the only thing that tells orderings apart
 * (3 ranks): rank 0 takes one message with MPI_ANY_SOURCE and writes the
 * sender's rank into the file, printing nothing.  Files written through
 * MPI-IO are part of an ordering's outcome, so exploration finds that the
 * outcome depends on the ordering.  argv[1]: the file (default
 * mpiio_outcome.dat).
 */
#include <mpi.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_outcome.dat";
    int rank, from = -1;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (rank == 0) {
        MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&rank, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_File_write_at(fh, 0, &from, 1, MPI_INT, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
