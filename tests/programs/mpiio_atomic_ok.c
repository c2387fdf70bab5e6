/* ordex-expect: ranks=2 clean */
/*
 * mpiio_atomic_ok.c - in atomic mode (MPI_File_set_atomicity) conflicting
 * accesses of the processes that opened the file are sequentially
 * consistent (MPI 3.1 13.6.1): rank 0 writes, a barrier, rank 1 reads the
 * same bytes without MPI_File_sync, and that is no race.  The same program
 * in nonatomic mode is mpiio_race.c.  argv[1]: the file (default
 * mpiio_atomic_ok.dat).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_atomic_ok.dat";
    int rank, v = 9;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    MPI_File_set_atomicity(fh, 1);
    if (rank == 0)
        MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        v = 0;
        MPI_File_read_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
        printf("rank 1 read %d\n", v);
    }
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
