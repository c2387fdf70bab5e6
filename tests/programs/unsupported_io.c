/*
 * unsupported_io.c - MPI-IO, which ordex does not implement: main opens a
 * file (line FILE_OPEN), writes to it (WRITE, twice) and closes it
 * (FILE_CLOSE); a helper it calls syncs it (SYNC).
 *
 * ordex must refuse it before running it, exit status 2, with one line:
 * "the program calls MPI_File_open at unsupported_io.c:<FILE_OPEN>, which
 * ordex does not implement (nor MPI_File_write_at at ...:<WRITE>,
 * MPI_File_close at ...:<FILE_CLOSE>, MPI_File_sync at ...:<SYNC>)" (main's
 * calls first, in code order; then the helper's), and --json gets
 * "verdict": "unsupported" with each function and the lines that call it.
 */
#include <mpi.h>
#include <stdio.h>

static void sync_file(MPI_File fh) {
    MPI_File_sync(fh); /* SYNC */
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, v = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File fh;
    MPI_Info info = MPI_INFO_NULL;
    int mode = MPI_MODE_CREATE | MPI_MODE_WRONLY;
    MPI_File_open(MPI_COMM_WORLD, "/tmp/ordex-unsupported-io", mode, info, &fh); /* FILE_OPEN */
    MPI_File_write_at(fh, rank * 4, &v, 1, MPI_INT, MPI_STATUS_IGNORE);          /* WRITE */
    if (rank == 1)
        sync_file(fh);
    MPI_File_write_at(fh, 8 + rank * 4, &v, 1, MPI_INT, MPI_STATUS_IGNORE); /* WRITE_2 */
    if (rank == 0)
        printf("rank 0: written\n");
    MPI_File_close(&fh); /* FILE_CLOSE */
    MPI_Finalize();
    return 0;
}
