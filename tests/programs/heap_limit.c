/*
 * heap_limit.c - every rank asks malloc for 4 MiB and writes to all of it.
 *
 * With the default heap (1 GiB of address space per rank) it succeeds:
 *   rank r: 4 MiB block ok
 * With --heap-size 1MiB the rank's arena cannot hold it, so malloc returns NULL
 * as the C standard requires (no crash, no finding):
 *   rank r: malloc returned NULL
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t bytes = (size_t)4 << 20;
    char *p = malloc(bytes);
    if (p) {
        memset(p, rank + 1, bytes);
        printf("rank %d: 4 MiB block %s\n", rank, p[bytes - 1] == rank + 1 ? "ok" : "BAD");
        free(p);
    } else {
        printf("rank %d: malloc returned NULL\n", rank);
    }
    MPI_Finalize();
    return 0;
}
