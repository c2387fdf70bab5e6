/*
 * exchange_bytes.c - ranks 0 and 1 each MPI_Send N bytes (N = argv[1]) to
 * the other before receiving.  Correct only when both sends are buffered: in
 * auto mode, when N is below --eager-limit.  So ordex must report [deadlock]
 * (both ranks blocked in MPI_Send on the line marked FAULT) when the limit
 * is N or less, and otherwise print "rank R: received N bytes" for ranks 0
 * and 1.  The tests use it to tell, to the byte, what a size given on the
 * command line means.  Other ranks do nothing.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = argc > 1 ? atoi(argv[1]) : 1;
    if (rank < 2 && n > 0) {
        char *out = calloc((size_t)n, 1), *in = malloc((size_t)n);
        int other = 1 - rank, count = 0;
        MPI_Status st;
        MPI_Send(out, n, MPI_CHAR, other, 0, MPI_COMM_WORLD); /* FAULT */
        MPI_Recv(in, n, MPI_CHAR, other, 0, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_CHAR, &count);
        printf("rank %d: received %d bytes\n", rank, count);
        free(out);
        free(in);
    }
    MPI_Finalize();
    return 0;
}
