/*
 * mpiio_close_missing.c - rank 1 never closes the file that both ranks
 * opened: MPI_File_close is collective (MPI 3.1 13.2.2), so rank 0 waits in
 * it forever.  ordex reports the collective that never completes, naming
 * MPI_File_close and its line.  argv[1]: the file (default
 * mpiio_close_missing.dat).
 */
#include <mpi.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_close_missing.dat";
    int rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, path,
                  MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    if (rank == 0)
        MPI_File_close(&fh); /* [CLOSE] */
    MPI_Finalize();
    return 0;
}
