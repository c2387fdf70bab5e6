/*
 * thread_multiple.c - a program that needs MPI_THREAD_MULTIPLE and stops,
 * as designed, when it gets less (argv[1]: abort, the default, with
 * MPI_Abort; exit, with exit(1) after MPI_Finalize).
 *
 * ordex provides MPI_THREAD_FUNNELED (ranks are contexts of one thread): it
 * must report that it does not support what the program needs, exit status
 * 2 and verdict "unsupported", naming MPI_THREAD_MULTIPLE and the
 * MPI_Init_thread call (the line marked INIT) -- not an error of the
 * program.  With argv[1] = funneled the program asks for what ordex has and
 * runs: "rank r: funneled ok", exit status 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *how = argc > 1 ? argv[1] : "abort";
    int want = strcmp(how, "funneled") == 0 ? MPI_THREAD_FUNNELED : MPI_THREAD_MULTIPLE;
    int provided;
    MPI_Init_thread(&argc, &argv, want, &provided); /* INIT */
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < want) {
        if (rank == 0)
            fprintf(stderr, "this program needs MPI_THREAD_MULTIPLE\n");
        if (strcmp(how, "exit") == 0) {
            MPI_Finalize();
            exit(1);
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    printf("rank %d: funneled ok\n", rank);
    MPI_Finalize();
    return 0;
}
