/* ordex-expect: clean */
/*
 * mpiio_orderings_ok.c - each explored ordering sees its own file (3
 * ranks).  Rank 0 writes -1 into the file, then takes two messages with
 * MPI_ANY_SOURCE; after the first it checks that the file still holds -1
 * and overwrites it with the sender's rank, after the second that it
 * holds that rank.  Exploration tries both senders first from a snapshot
 * taken when the file already held -1, so an ordering that saw what an
 * earlier one wrote (bytes overwritten in place, not appended) would
 * abort.  argv[1]: the file (default mpiio_orderings_ok.dat).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_orderings_ok.dat";
    int rank, v = -1, got, first;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    if (rank == 0) {
        MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_File_read_at(fh, 0, &got, 1, MPI_INT, MPI_STATUS_IGNORE);
        if (got != -1) {
            fprintf(stderr, "rank 0: the file holds %d, written by another ordering\n", got);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        MPI_File_write_at(fh, 0, &first, 1, MPI_INT, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_File_read_at(fh, 0, &got, 1, MPI_INT, MPI_STATUS_IGNORE);
        if (got != first) {
            fprintf(stderr, "rank 0: the file holds %d, not %d\n", got, first);
            MPI_Abort(MPI_COMM_WORLD, 4);
        }
        printf("first %d\n", first);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Finalize();
    return 0;
}
