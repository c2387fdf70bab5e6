/*
 * mpiio_coll_mismatch.c - as their first collective access of the file,
 * rank 0 calls MPI_File_write_all and rank 1 MPI_File_write_at_all: a
 * collective mismatch (MPI 3.1 13.4: every process of the file's group
 * makes the same collective call).  ordex names both calls and lines.
 * argv[1]: the file (default mpiio_coll_mismatch.dat).
 */
#include <mpi.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_coll_mismatch.dat";
    int rank, v = 1;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, path,
                  MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    if (rank == 0)
        MPI_File_write_all(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE); /* [ALL] */
    else
        MPI_File_write_at_all(fh, 4, &v, 1, MPI_INT, MPI_STATUS_IGNORE); /* [AT_ALL] */
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
