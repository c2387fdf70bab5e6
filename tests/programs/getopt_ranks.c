/*
 * getopt_ranks.c - every rank parses its own command line with getopt.
 *
 * getopt keeps its position in the C library (optind, optarg and a pointer
 * of its own), which a process has to itself.  Run with "-m 4 extra -i 2":
 * every rank parses the first option, waits at a barrier (the other ranks
 * parse theirs meanwhile), and parses the rest; then it parses the options
 * again from the start (optind = 0) with getopt_long.  No error; for rank r:
 *   rank r: m=4 i=2 optind=5 operand=extra
 *   rank r: again m=4 i=2 optind=5
 * (GNU getopt moves the operand "extra" after the options.)
 */
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int m = -1, i = -1, c, waited = 0;
    while ((c = getopt(argc, argv, "m:i:")) != -1) {
        if (c == 'm')
            m = atoi(optarg);
        else if (c == 'i')
            i = atoi(optarg);
        if (!waited) {
            waited = 1;
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    if (!waited)
        MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: m=%d i=%d optind=%d operand=%s\n", rank, m, i, optind,
           optind < argc ? argv[optind] : "(none)");
    fflush(stdout);

    static const struct option longopts[] = {{"size", required_argument, NULL, 'm'},
                                             {"iterations", required_argument, NULL, 'i'},
                                             {NULL, 0, NULL, 0}};
    optind = 0;
    m = i = -1;
    while ((c = getopt_long(argc, argv, "m:i:", longopts, NULL)) != -1) {
        if (c == 'm')
            m = atoi(optarg);
        else if (c == 'i')
            i = atoi(optarg);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: again m=%d i=%d optind=%d\n", rank, m, i, optind);
    MPI_Finalize();
    return 0;
}
