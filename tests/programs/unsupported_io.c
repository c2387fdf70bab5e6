/*
 * unsupported_io.c - MPI-IO, which ordex does not implement: every rank
 * says it starts, then main opens a file (line FILE_OPEN), writes to it
 * (WRITE) and closes it.
 *
 * The program loads and runs: the ranks' first lines appear, and the first
 * call of MPI_File_open stops the run with the finding "rank N called
 * MPI_File_open, which ordex does not implement" at unsupported_io.c:
 * <FILE_OPEN>, exit status 2, and --json gets "verdict": "unsupported".
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, v = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: starting\n", rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    MPI_Info info = MPI_INFO_NULL;
    int mode = MPI_MODE_CREATE | MPI_MODE_WRONLY;
    MPI_File_open(MPI_COMM_WORLD, "/tmp/ordex-unsupported-io", mode, info, &fh); /* FILE_OPEN */
    MPI_File_write_at(fh, rank * 4, &v, 1, MPI_INT, MPI_STATUS_IGNORE);          /* WRITE */
    MPI_File_close(&fh);
    printf("rank %d: written\n", rank);
    MPI_Finalize();
    return 0;
}
