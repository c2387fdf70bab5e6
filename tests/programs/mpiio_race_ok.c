/* ordex-expect: ranks=2 clean */
/*
 * mpiio_race_ok.c - the twin of mpiio_race.c: rank 0 writes 16 bytes, rank 1 reads them
 * after MPI_File_sync, MPI_Barrier, MPI_File_sync, which MPI 3.1 13.6.1
 * asks for in nonatomic mode: no race, and rank 1 reads 3 4.
 * argv[1]: the file (default mpiio_race_ok.dat).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_race_ok.dat";
    int rank, buf[4] = {1, 2, 3, 4};
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    if (rank == 0)
        MPI_File_write_at(fh, 0, buf, 4, MPI_INT, MPI_STATUS_IGNORE); /* [A] */
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    if (rank == 1)
        MPI_File_read_at(fh, 8, buf, 2, MPI_INT, MPI_STATUS_IGNORE); /* [B] */
    if (rank == 1)
        printf("rank 1 read %d %d\n", buf[0], buf[1]);
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
