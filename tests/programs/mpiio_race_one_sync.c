/* ordex-expect: ranks=2 race=A,B */
/*
 * mpiio_race_one_sync.c - each rank opens the file on its own
 * (MPI_COMM_SELF, so MPI_File_sync is its own); rank 0 writes and calls
 * MPI_File_sync, both ranks meet in a barrier, and rank 1 reads the same
 * bytes without an MPI_File_sync of its own handle.  MPI 3.1 13.6.1 asks
 * for sync, barrier, sync: without the reader's sync the two accesses
 * race.  With argument "sync" rank 1 syncs first: no race.
 * argv[1]: the file (default mpiio_race_one_sync.dat), argv[2]: "sync" or
 * nothing.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_race_one_sync.dat";
    int reader_syncs = argc > 2 && argv[2][0] == 's';
    int rank, v = 5;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    if (rank == 0) {
        MPI_File_write_at(fh, 12, &v, 1, MPI_INT, MPI_STATUS_IGNORE); /* [A] */
        MPI_File_sync(fh);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        v = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (reader_syncs)
            MPI_File_sync(fh);
        MPI_File_read_at(fh, 12, &v, 1, MPI_INT, MPI_STATUS_IGNORE); /* [B] */
        if (reader_syncs)
            printf("rank 1 read %d\n", v);
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Finalize();
    return 0;
}
