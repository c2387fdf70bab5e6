/*
 * mpiio_not_same.c - arguments of MPI-IO collectives that must be the same
 * on every process (MPI 3.1 13.2.1, 13.2.4, 13.4.4): ranks that open
 * different files get MPI_ERR_NOT_SAME (and MPI_FILE_NULL), as do ranks
 * that pass different sizes to MPI_File_set_size; MPI_File_seek_shared
 * with MPI_SEEK_END puts the shared pointer at the end of the file in
 * etypes of the view.  Errors come back through MPI_ERRORS_RETURN.
 * argv[1]: a directory for the files (default .).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char name[512];
    int rank, rc, cls;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(name, sizeof name, "%s/mpiio_not_same.%d", dir, rank);
    rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_Error_class(rc, &cls);
    printf("rank %d: different names: %s, null %d\n", rank,
           cls == MPI_ERR_NOT_SAME ? "MPI_ERR_NOT_SAME" : "other", fh == MPI_FILE_NULL);
    snprintf(name, sizeof name, "%s/mpiio_not_same.dat", dir);
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    rc = MPI_File_set_size(fh, 40 + rank);
    MPI_Error_class(rc, &cls);
    printf("rank %d: different sizes: %s\n", rank,
           cls == MPI_ERR_NOT_SAME ? "MPI_ERR_NOT_SAME" : "other");
    MPI_File_set_size(fh, 40);
    MPI_File_set_view(fh, 8, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_END);
    MPI_Offset at;
    MPI_File_get_position_shared(fh, &at);
    printf("rank %d: shared pointer at the end: %lld\n", rank, (long long)at);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
