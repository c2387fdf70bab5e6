/*
 * alias.c - send and receive buffers that must not overlap: MPI_Sendrecv's
 * (MPI 3.1 section 3.10) and those of collectives that are not given
 * MPI_IN_PLACE (section 2.3: an argument a call writes must not alias
 * another).
 *
 *   alias            the correct twin: MPI_Sendrecv sends the even ints of an
 *                    array and receives into its odd ints (interleaved, not
 *                    overlapping), MPI_Allreduce reduces the first half of an
 *                    array into its second half, MPI_Gather's root gathers into
 *                    the second half of the array it sends the first half of,
 *                    and MPI_Allreduce with MPI_IN_PLACE.  No error; every rank
 *                    prints its arrays (stdout equals real MPICH's).
 *   alias sendrecv   MPI_Sendrecv receives into ints 2-5 of the array it sends
 *                    ints 0-3 of: an MPI error at [SENDRECV].
 *   alias allreduce  MPI_Allreduce into the array it reduces, one int further:
 *                    an MPI error at [ALLREDUCE].
 *   alias gather     the root (the last rank) sends from its own block of the
 *                    receive buffer without MPI_IN_PLACE: an MPI error at
 *                    [GATHER] (the root's only).
 *   alias alltoallv  blocks of the send and receive buffers interleave but one
 *                    receive block covers a send block: an MPI error at
 *                    [ALLTOALLV].
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 16 };

/* This rank's lines, written at once at the end: under mpiexec the ranks'
 * outputs may interleave inside a line otherwise. */
static char out[2048];
static size_t outlen;

static void show(int rank, const char *what, const int *a, int n) {
    outlen += (size_t)snprintf(out + outlen, sizeof out - outlen, "rank %d: %s", rank, what);
    for (int i = 0; i < n; i++)
        outlen += (size_t)snprintf(out + outlen, sizeof out - outlen, " %d", a[i]);
    outlen += (size_t)snprintf(out + outlen, sizeof out - outlen, "\n");
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int a[N * 4];
    for (int i = 0; i < N * 4; i++)
        a[i] = 100 * rank + i;

    if (strcmp(mode, "sendrecv") == 0) {
        MPI_Sendrecv(a, 4, MPI_INT, right, 0, a + 2, 4, MPI_INT, left, 0, // [SENDRECV]
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (strcmp(mode, "allreduce") == 0) {
        MPI_Allreduce(a, a + 1, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // [ALLREDUCE]
    } else if (strcmp(mode, "gather") == 0) {
        MPI_Gather(a + 2 * rank, 2, MPI_INT, a, 2, MPI_INT, size - 1, MPI_COMM_WORLD); // [GATHER]
    } else if (strcmp(mode, "alltoallv") == 0) {
        int sc[N], sd[N], rc[N], rd[N];
        for (int i = 0; i < size; i++) {
            sc[i] = rc[i] = 1;
            sd[i] = 4 * i;     /* ints 0, 4, 8, ... */
            rd[i] = 4 * i + 2; /* ints 2, 6, 10, ...: between them */
        }
        rd[size - 1] = 4 * (size - 1); /* the last block onto a send block */
        MPI_Alltoallv(a, sc, sd, MPI_INT, a, rc, rd, MPI_INT, MPI_COMM_WORLD); // [ALLTOALLV]
    } else {
        /* Interleaved: the even ints go out, the odd ones come in. */
        MPI_Datatype every_other;
        MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
        MPI_Type_commit(&every_other);
        MPI_Sendrecv(a, 1, every_other, right, 0, a + 1, 1, every_other, left, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Type_free(&every_other);
        show(rank, "sendrecv", a, 8);
        /* Halves of one array. */
        MPI_Allreduce(a, a + N, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        show(rank, "allreduce", a + N, 4);
        int b[4] = {rank, rank, rank, rank};
        MPI_Allreduce(MPI_IN_PLACE, b, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        show(rank, "in place", b, 4);
        /* The root's receive buffer right after what it sends. */
        int g[2 + 2 * N];
        g[0] = g[1] = rank;
        MPI_Gather(g, 2, MPI_INT, g + 2, 2, MPI_INT, 0, MPI_COMM_WORLD);
        if (rank == 0)
            show(rank, "gather", g + 2, 2 * size);
    }
    fwrite(out, 1, outlen, stdout);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
