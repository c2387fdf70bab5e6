/*
 * strtok_ranks.c - strtok's position is per rank.
 *
 * Every rank splits a list of its own with strtok: it takes the first token,
 * waits at a barrier (the other ranks start theirs meanwhile), and takes the
 * rest.  No error; for rank r:
 *   rank r: r.a r.b r.c
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char list[64], out[64] = "";
    snprintf(list, sizeof list, "%d.a,%d.b;%d.c", rank, rank, rank);
    char *tok = strtok(list, ",;");
    MPI_Barrier(MPI_COMM_WORLD);
    while (tok) {
        strcat(out, " ");
        strcat(out, tok);
        tok = strtok(NULL, ",;");
    }
    printf("rank %d:%s\n", rank, out);
    MPI_Finalize();
    return 0;
}
