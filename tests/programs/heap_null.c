/*
 * heap_null.c - a rank uses what malloc returned without checking it.
 *
 * Rank 1 asks for 4 MiB and writes to it.  With the default heap (1 GiB of
 * address space per rank) that works, as under mpiexec:
 *   rank r: done
 * With --heap-size 1MiB malloc returns NULL and rank 1 writes through it: a
 * crash at the FAULT line, whose finding says that the rank's heap limit
 * was reached before (a 4 MiB allocation failed) and names --heap-size.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        size_t bytes = (size_t)4 << 20;
        volatile char *p = malloc(bytes);
        p[bytes / 2] = 1; /* FAULT */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
