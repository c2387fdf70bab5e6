/*
 * rank_log.c - every rank keeps a log file open across its MPI calls, then
 * reads it back and prints how many lines it holds.
 *
 * Rank 0 receives from MPI_ANY_SOURCE, so orderings differ in which sender
 * it hears first, but every ordering logs the same number of lines: the
 * output never depends on the ordering.
 *
 * ordex explore -n 3 rank_log.c DIR (DIR: where the logs go), with every
 * checkpoint backend: no error, no race; each rank prints "rank R: 3 lines"
 * (rank 0: start, two receives; the others: start, sent, done).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        fprintf(stderr, "usage: rank_log DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/rank_log.%d", argv[1], rank);
    FILE *log = fopen(path, "w+");
    if (!log) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fprintf(log, "start\n");
    if (rank == 0) {
        for (int i = 1; i < size; i++) {
            int from;
            MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            fprintf(log, "heard from a rank\n");
        }
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        fprintf(log, "sent\n");
        fprintf(log, "done\n");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rewind(log);
    int lines = 0;
    for (int c; (c = fgetc(log)) != EOF;)
        lines += c == '\n';
    fclose(log);
    printf("rank %d: %d lines\n", rank, lines);
    MPI_Finalize();
    return 0;
}
