/*
 * mpiio_ibuf_race.c - the buffer of a nonblocking MPI-IO access belongs to
 * MPI until the access completes (MPI 3.1 13.4.5): touching it before the
 * wait is the program's error, even where the implementation has moved
 * the data already.  Each rank writes 4 ints at its own offset of the
 * file (argv[1], default mpiio_ibuf_race.dat), then, as argv[2] says:
 *   iwrite  stores into the buffer of MPI_File_iwrite_at before MPI_Wait
 *   iread   loads from the buffer of MPI_File_iread_at before MPI_Wait
 *   split   stores into the buffer of MPI_File_write_all_begin before
 *           MPI_File_write_all_end
 *   ok      each of those, touching the buffers only after the completion
 *           (the correct twin).
 * The access is marked A, the touch B.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int buf[4], in[4];

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_ibuf_race.dat";
    const char *how = argc > 2 ? argv[2] : "ok";
    int rank, sum = 0;
    MPI_File fh;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_Offset at = (MPI_Offset)rank * sizeof buf;
    for (int i = 0; i < 4; i++)
        buf[i] = rank * 10 + i;
    int ok = strcmp(how, "ok") == 0;
    if (ok || strcmp(how, "iwrite") == 0) {
        MPI_File_iwrite_at(fh, at, buf, 4, MPI_INT, &req); // [A iwrite]
        if (!ok)
            buf[0] = -1; // [B iwrite]
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        buf[0] = rank * 10;
    }
    if (ok || strcmp(how, "iread") == 0) {
        MPI_File_iread_at(fh, at, in, 4, MPI_INT, &req); // [A iread]
        if (!ok)
            sum += in[1]; // [B iread]
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        sum += in[2];
    }
    if (ok || strcmp(how, "split") == 0) {
        MPI_File_write_at_all_begin(fh, at, buf, 4, MPI_INT); // [A split]
        if (!ok)
            buf[3] = -3; // [B split]
        MPI_File_write_at_all_end(fh, buf, MPI_STATUS_IGNORE);
        buf[3] = 0;
    }
    MPI_File_close(&fh);
    printf("rank %d done (%d)\n", rank, sum);
    MPI_Finalize();
    return 0;
}
