/*
 * userlib_lib.c - the user's own shared library for userlib.c (not a
 * program: built with `ordexcc -o libuserlib.so userlib_lib.c`).
 *
 * It counts its callers' calls in globals of its own (one in .bss, one in
 * .data, one set by a constructor) and asks MPI for the caller's rank, as a
 * library layered on MPI does.  Under mpiexec every rank is a process with
 * its own copy of these globals; under ordex every rank must be too.
 * userlib_recv (for userlib_deadlock.c) blocks in MPI_Recv inside the
 * library, at the FAULT line.
 */
#include <mpi.h>

static int calls;         /* .bss */
int userlib_total = 1000; /* .data */
static int constructed;   /* set once per copy of the library */

__attribute__((constructor)) static void userlib_init(void) {
    constructed++;
}

int userlib_count(void) {
    userlib_total++;
    return ++calls;
}

int userlib_constructed(void) {
    return constructed;
}

int userlib_rank(void) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int userlib_recv(int source) {
    int value = -1;
    MPI_Recv(&value, 1, MPI_INT, source, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* FAULT */
    return value;
}
