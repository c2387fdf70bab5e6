/*
 * request_free_active.c - MPI_Request_free on active requests: legal, but
 * the program can no longer learn when the operation completes, so it does
 * not know when it may reuse a send buffer or read a receive buffer (MPI
 * 3.1 section 3.7.3).
 *
 *   request_free_active        every rank receives from its left neighbour
 *                              with MPI_Irecv and sends to its right with
 *                              MPI_Isend, then frees both requests
 *                              ([FREE_RECV], [FREE_SEND]).  ordex: a
 *                              warning at each MPI_Request_free, naming the
 *                              MPI_Isend ([ISEND]) or MPI_Irecv ([IRECV]) and its
 *                              line, and every rank; the exit status stays 0.
 *   request_free_active wait   the twin that waits for both requests: no
 *                              finding.
 * Every rank prints what a first, waited exchange brought (stdout equals
 * real MPICH's).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int wait = argc > 1 && strcmp(argv[1], "wait") == 0;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    int first = 10 * rank, got = -1;
    MPI_Sendrecv(&first, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    /* One write: under mpiexec the ranks' outputs may interleave inside a
     * line otherwise. */
    char line[64];
    int len = snprintf(line, sizeof line, "rank %d: got %d\n", rank, got);
    fwrite(line, 1, (size_t)len, stdout);
    fflush(stdout);

    static int out, in;
    out = 100 + rank;
    MPI_Request s, r;
    MPI_Irecv(&in, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &r);   /* [IRECV] */
    MPI_Isend(&out, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &s); /* [ISEND] */
    if (wait) {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
    } else {
        MPI_Request_free(&r); /* [FREE_RECV] */
        MPI_Request_free(&s); /* [FREE_SEND] */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
