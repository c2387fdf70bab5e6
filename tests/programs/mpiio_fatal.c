/*
 * mpiio_fatal.c - a file whose error handler the program set to
 * MPI_ERRORS_ARE_FATAL: a write to a file opened MPI_MODE_RDONLY
 * (MPI_ERR_READ_ONLY) stops the run with the error at the write.
 * argv[1]: the file, which must exist (default mpiio_fatal.dat).
 */
#include <mpi.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_fatal.dat";
    int rank, v = 1;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    MPI_File_close(&fh);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                  &fh);
    MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL);
    if (rank == 1)
        MPI_File_write(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE); /* [WRITE] */
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
