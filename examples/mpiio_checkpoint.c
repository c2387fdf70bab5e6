/*
 * mpiio_checkpoint.c - a distributed array written to a file and read back
 * in another decomposition with MPI-IO.
 *
 * The global array has ROWS x COLS ints, value 1000 * row + column.  Each
 * rank owns ROWS / size consecutive rows and writes them with
 * MPI_File_write_all through a view whose displacement is its first row.
 * Then every rank reads back the columns c with c % size == rank, through a
 * view whose filetype picks one int of each COLS (a vector resized to one
 * row, displaced by the column), and checks every value.  Between the
 * writes and the reads: MPI_File_sync, MPI_Barrier, MPI_File_sync, which
 * MPI 3.1 13.6.1 requires for one process to see another's writes.
 *
 * Usage: mpiio_checkpoint [--racy] [FILE]   (default mpiio_checkpoint.dat,
 * removed at the end).  --racy leaves out the syncs and the barrier: the
 * reads of other ranks' rows race with their writes ([WRITE] and [READ]).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 8
#define COLS 8

int main(int argc, char **argv) {
    int racy = argc > 1 && strcmp(argv[1], "--racy") == 0;
    const char *path = argc > 1 + racy ? argv[1 + racy] : "mpiio_checkpoint.dat";
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (ROWS % size != 0 || COLS % size != 0) {
        if (rank == 0)
            fprintf(stderr, "mpiio_checkpoint: %d ranks do not divide %d rows\n", size, ROWS);
        MPI_Finalize();
        return 1;
    }
    int mine = ROWS / size, first = rank * mine;
    int *rows = malloc(sizeof(int) * (size_t)(mine * COLS));
    for (int r = 0; r < mine; r++)
        for (int c = 0; c < COLS; c++)
            rows[r * COLS + c] = 1000 * (first + r) + c;

    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, (MPI_Offset)first * COLS * sizeof(int), MPI_INT, MPI_INT, "native",
                      MPI_INFO_NULL);
    MPI_File_write_all(fh, rows, mine * COLS, MPI_INT, MPI_STATUS_IGNORE); /* [WRITE] */
    if (!racy) {
        MPI_File_sync(fh);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_File_sync(fh);
    }

    /* Column c of every row: one int, then a hole up to the next row. */
    MPI_Datatype one, column;
    MPI_Type_vector(1, 1, COLS, MPI_INT, &one);
    MPI_Type_create_resized(one, 0, COLS * sizeof(int), &column);
    MPI_Type_commit(&column);
    int ncols = COLS / size, bad = 0;
    long sum = 0;
    int *col = malloc(sizeof(int) * ROWS);
    for (int k = 0; k < ncols; k++) {
        int c = rank + k * size;
        MPI_File_set_view(fh, (MPI_Offset)c * sizeof(int), MPI_INT, column, "native",
                          MPI_INFO_NULL);
        MPI_Status st;
        int got;
        MPI_File_read_all(fh, col, ROWS, MPI_INT, &st); /* [READ] */
        MPI_Get_count(&st, MPI_INT, &got);
        for (int r = 0; r < ROWS; r++) {
            bad += r >= got || col[r] != 1000 * r + c;
            sum += col[r];
        }
    }
    printf("rank %d: %d columns read back, %s, sum %ld\n", rank, ncols,
           bad ? "WRONG VALUES" : "all values right", sum);
    MPI_Type_free(&column);
    MPI_Type_free(&one);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    free(col);
    free(rows);
    MPI_Finalize();
    return bad != 0;
}
