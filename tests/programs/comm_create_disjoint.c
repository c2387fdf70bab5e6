/*
 * comm_create_disjoint.c - MPI_Comm_create with a different group on each
 * process (allowed since MPI 2.2): the groups must be disjoint, and each
 * process gets the communicator of its own group.
 *
 * Phase 1: even and odd world ranks, each parity's group in descending rank
 * order; with an odd number of ranks the last rank passes MPI_GROUP_EMPTY
 * and gets MPI_COMM_NULL.  Phase 2: every rank alone in its own group.
 * Phase 3: rank 0 passes the group of the others without being in it (it
 * gets MPI_COMM_NULL), the others pass that group.  Each new communicator
 * sums its members' world ranks.  No error; every rank prints
 *   rank r: parity P rank k of n sum S
 *   rank r: alone rank 0 of 1 sum r
 *   rank r: rest none | rest rank k of n sum S
 * (stdout equals real MPICH's).  Every handle is freed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* This rank's lines, written at once at the end: under mpiexec the ranks'
 * outputs may interleave inside a line otherwise. */
static char text[1024];
static size_t textlen;

static void report(int rank, const char *what, MPI_Comm c) {
    if (c == MPI_COMM_NULL) {
        textlen += (size_t)snprintf(text + textlen, sizeof text - textlen, "rank %d: %s none\n",
                                    rank, what);
        return;
    }
    int k, n, sum;
    MPI_Comm_rank(c, &k);
    MPI_Comm_size(c, &n);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    textlen += (size_t)snprintf(text + textlen, sizeof text - textlen,
                                "rank %d: %s rank %d of %d sum %d\n", rank, what, k, n, sum);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);

    /* Phase 1: the ranks of my parity, highest first; the last of an odd
     * count stays out. */
    int *ranks = malloc(sizeof(int) * (size_t)size), n = 0;
    int out = size % 2 == 1 && size > 1 && rank == size - 1;
    for (int r = size - 1; r >= 0; r--)
        if (r % 2 == rank % 2 && !(size % 2 == 1 && size > 1 && r == size - 1))
            ranks[n++] = r;
    MPI_Group mine = MPI_GROUP_EMPTY;
    if (!out)
        MPI_Group_incl(world, n, ranks, &mine);
    MPI_Comm parity;
    MPI_Comm_create(MPI_COMM_WORLD, mine, &parity);
    report(rank, "parity", parity);
    if (parity != MPI_COMM_NULL)
        MPI_Comm_free(&parity);
    if (mine != MPI_GROUP_EMPTY)
        MPI_Group_free(&mine);

    /* Phase 2: alone. */
    MPI_Group self;
    MPI_Group_incl(world, 1, &rank, &self);
    MPI_Comm alone;
    MPI_Comm_create(MPI_COMM_WORLD, self, &alone);
    report(rank, "alone", alone);
    MPI_Comm_free(&alone);
    MPI_Group_free(&self);

    /* Phase 3: everyone but rank 0, which passes that group too. */
    int zero = 0;
    MPI_Group rest;
    MPI_Group_excl(world, 1, &zero, &rest);
    MPI_Comm others;
    MPI_Comm_create(MPI_COMM_WORLD, rest, &others);
    report(rank, "rest", others);
    if (others != MPI_COMM_NULL)
        MPI_Comm_free(&others);
    if (rest != MPI_GROUP_EMPTY)
        MPI_Group_free(&rest);

    MPI_Group_free(&world);
    free(ranks);
    fwrite(text, 1, textlen, stdout);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
