/*
 * mpiio_bad_buffer.c - buffers that cannot be accessed: a write from and a
 * read into an address no memory backs fail with MPI_ERR_BUFFER through
 * the file's error handler (MPI_ERRORS_RETURN), and the run goes on with
 * the file as it was.  argv[1]: the file (default mpiio_bad_buffer.dat).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_bad_buffer.dat";
    int rank, cls, v[4] = {1, 2, 3, 4};
    void *bad = (void *)(uintptr_t)64;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    if (rank == 0) {
        MPI_File_write(fh, v, 4, MPI_INT, MPI_STATUS_IGNORE);
        MPI_Error_class(MPI_File_write_at(fh, 0, bad, 4, MPI_INT, MPI_STATUS_IGNORE), &cls);
        printf("write from a bad buffer: %s\n", cls == MPI_ERR_BUFFER ? "MPI_ERR_BUFFER" : "other");
        MPI_File_seek(fh, 0, MPI_SEEK_SET);
        MPI_Error_class(MPI_File_read(fh, bad, 4, MPI_INT, MPI_STATUS_IGNORE), &cls);
        printf("read into a bad buffer: %s\n", cls == MPI_ERR_BUFFER ? "MPI_ERR_BUFFER" : "other");
        MPI_File_read_at(fh, 0, v, 4, MPI_INT, MPI_STATUS_IGNORE);
        printf("file still holds %d %d %d %d\n", v[0], v[1], v[2], v[3]);
    }
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
