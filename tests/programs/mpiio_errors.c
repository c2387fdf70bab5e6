/* ordex-expect: clean */
/*
 * mpiio_errors.c - MPI-IO errors come back through MPI_ERRORS_RETURN, the
 * default error handler of files (MPI 3.1 13.7), with the classes the
 * standard gives: opening a file that does not exist without
 * MPI_MODE_CREATE is MPI_ERR_NO_SUCH_FILE, MPI_MODE_RDONLY with
 * MPI_MODE_CREATE is MPI_ERR_AMODE, MPI_MODE_EXCL on an existing file
 * MPI_ERR_FILE_EXISTS, a write to a file opened MPI_MODE_RDONLY
 * MPI_ERR_READ_ONLY, deleting a missing file MPI_ERR_NO_SUCH_FILE.  A
 * handler the program sets on a file (MPI_File_create_errhandler) is
 * called with that file for its errors and for MPI_File_call_errhandler.
 * Each rank prints the classes; the run ends without error.
 * argv[1]: a directory for the files (default .).
 */
#include <mpi.h>
#include <stdio.h>

static void show(int rank, const char *what, int rc) {
    int cls;
    MPI_Error_class(rc, &cls);
    printf("rank %d: %s -> %s\n", rank, what,
           cls == MPI_SUCCESS            ? "MPI_SUCCESS"
           : cls == MPI_ERR_NO_SUCH_FILE ? "MPI_ERR_NO_SUCH_FILE"
           : cls == MPI_ERR_AMODE        ? "MPI_ERR_AMODE"
           : cls == MPI_ERR_FILE_EXISTS  ? "MPI_ERR_FILE_EXISTS"
           : cls == MPI_ERR_READ_ONLY    ? "MPI_ERR_READ_ONLY"
           : cls == MPI_ERR_ACCESS       ? "MPI_ERR_ACCESS"
                                         : "another class");
}

static MPI_File g_file;

static void handler(MPI_File *fh, int *code, ...) {
    int rank, cls;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Error_class(*code, &cls);
    printf("rank %d: handler called for the file: %d, class %s\n", rank, *fh == g_file,
           cls == MPI_ERR_READ_ONLY ? "MPI_ERR_READ_ONLY"
           : cls == MPI_ERR_OTHER   ? "MPI_ERR_OTHER"
                                    : "another");
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char missing[512], present[512];
    snprintf(missing, sizeof missing, "%s/mpiio_errors_missing.dat", dir);
    snprintf(present, sizeof present, "%s/mpiio_errors_present.dat", dir);
    int rank, v = 7;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    show(rank, "open missing file", rc);
    printf("rank %d: handle is MPI_FILE_NULL: %d\n", rank, fh == MPI_FILE_NULL);
    rc = MPI_File_open(MPI_COMM_WORLD, present, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL,
                       &fh);
    show(rank, "open RDONLY|CREATE", rc);
    rc = MPI_File_open(MPI_COMM_WORLD, present, MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL,
                       &fh);
    show(rank, "create", rc);
    MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_WORLD, present, MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL,
                       MPI_INFO_NULL, &fh);
    show(rank, "create EXCL existing", rc);
    rc = MPI_File_open(MPI_COMM_WORLD, present, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    show(rank, "open RDONLY", rc);
    rc = MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    show(rank, "write to RDONLY", rc);
    MPI_Errhandler eh, got;
    MPI_File_create_errhandler(handler, &eh);
    MPI_File_set_errhandler(fh, eh);
    MPI_File_get_errhandler(fh, &got);
    printf("rank %d: get_errhandler returns it: %d\n", rank, got == eh);
    MPI_Errhandler_free(&got);
    g_file = fh;
    MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_call_errhandler(fh, MPI_ERR_OTHER);
    MPI_Errhandler_free(&eh);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        show(rank, "delete", MPI_File_delete(present, MPI_INFO_NULL));
        show(rank, "delete again", MPI_File_delete(present, MPI_INFO_NULL));
    }
    MPI_Finalize();
    return 0;
}
