/*
 * heap.c - the heap of each rank: malloc, free, calloc, realloc.
 *
 * Every rank allocates a sequence of blocks, frees some, allocates again, and
 * prints the offset of each block from its first block ("offsets" line) and the
 * blocks' contents ("contents" lines).  With ordex the offsets are deterministic:
 * two runs print identical output.  calloc memory must read as zero and realloc
 * must keep the old contents.  No error.  For rank r the contents lines are:
 *   rank r: contents a=S b=S+1 calloc-zero=1 realloc-kept=1 sum=U
 * with S = 1000*r and U the sum of the grown block (see the code).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *first = malloc(24);
    int *a = malloc(40 * sizeof(int));
    int *b = malloc(100 * sizeof(int));
    free(a);
    int *c = calloc(300, sizeof(int)); /* may reuse a's memory: must still be zero */
    a = malloc(8 * sizeof(int));
    a[0] = 1000 * rank;
    b[0] = a[0] + 1;
    int zero = 1;
    for (int i = 0; i < 300; i++) {
        zero &= c[i] == 0;
    }
    int *g = malloc(10 * sizeof(int));
    for (int i = 0; i < 10; i++) {
        g[i] = rank + i;
    }
    g = realloc(g, 5000 * sizeof(int)); /* grows: may move */
    int kept = 1;
    long sum = 0;
    for (int i = 0; i < 10; i++) {
        kept &= g[i] == rank + i;
        sum += g[i];
    }
    printf("rank %d: offsets %td %td %td %td\n", rank, (char *)a - first, (char *)b - first,
           (char *)c - first, (char *)g - first);
    printf("rank %d: contents a=%d b=%d calloc-zero=%d realloc-kept=%d sum=%ld\n", rank, a[0], b[0],
           zero, kept, sum);
    free(a);
    free(b);
    free(c);
    free(g);
    free(first);
    MPI_Finalize();
    return 0;
}
