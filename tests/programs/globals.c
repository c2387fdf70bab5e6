/*
 * globals.c - globals and statics are per rank.
 *
 * Every rank adds to a global counter and fills a static array in its own way,
 * waits for everybody (MPI_Barrier), then prints its own values.  If ranks
 * shared their globals the printed values would mix.  No error; stdout (lines
 * of different ranks may interleave), for rank r:
 *   rank r: counter C calls K table T0 T1 T2 T3 initialised I
 * with C = 100 + r*(r+1)/2, K = r+1, Ti = r*10+i, I = 1.
 */
#include <mpi.h>
#include <stdio.h>

int counter = 100;
static int table[4];
static int initialised;

static int bump(int by) {
    static int calls; /* a function-local static is a global too */
    counter += by;
    return ++calls;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int calls = 0;
    for (int i = 0; i <= rank; i++) {
        calls = bump(i);
    }
    for (int i = 0; i < 4; i++) {
        table[i] += rank * 10 + i;
    }
    initialised++;
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has written before anyone prints */
    printf("rank %d: counter %d calls %d table %d %d %d %d initialised %d\n", rank, counter, calls,
           table[0], table[1], table[2], table[3], initialised);
    MPI_Finalize();
    return 0;
}
