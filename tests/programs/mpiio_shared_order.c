/*
 * mpiio_shared_order.c - independent accesses through the shared file
 * pointer (MPI 3.1 13.4.4): each rank writes one record, its rank, with
 * MPI_File_write_shared (or MPI_File_iwrite_shared + MPI_Wait with argument
 * "nonblocking").  MPI says only that the records do not overlap, not in
 * which order they land, so the file holds them in any order of the ranks:
 * with n ranks, n! different files, and exploration finds each.  With
 * argument "ordered", MPI_File_write_ordered puts them in rank order: one
 * file.  Rank 0 prints nothing, so the file is all that tells the
 * orderings apart.  argv[1]: the file (default mpiio_shared_order.dat).
 */
#include <mpi.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_shared_order.dat";
    const char *how = argc > 2 ? argv[2] : "shared";
    int rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    MPI_File_set_size(fh, 0);
    if (strcmp(how, "ordered") == 0) {
        MPI_File_write_ordered(fh, &rank, 1, MPI_INT, MPI_STATUS_IGNORE);
    } else if (strcmp(how, "nonblocking") == 0) {
        MPI_Request req;
        MPI_File_iwrite_shared(fh, &rank, 1, MPI_INT, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_File_write_shared(fh, &rank, 1, MPI_INT, MPI_STATUS_IGNORE);
    }
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
