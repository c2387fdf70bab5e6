/*
 * mpiio_predict.c - each rank writes argv[2] bytes to its own part of the
 * file argv[1] in one MPI_File_write_at, between MPI_File_open and
 * MPI_File_close, for `ordex predict`: the data access costs 10 us plus 1
 * ns per byte (docs/mpiio.md), so 4 MB more per rank predict 4 ms more.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_predict.dat";
    int n = argc > 2 ? atoi(argv[2]) : 0, rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = calloc((size_t)n + 1, 1);
    MPI_File_open(MPI_COMM_WORLD, path,
                  MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    MPI_File_write_at(fh, (MPI_Offset)rank * n, buf, n, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    free(buf);
    MPI_Finalize();
    return 0;
}
