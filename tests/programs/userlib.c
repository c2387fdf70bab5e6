/*
 * userlib.c - globals of the user's own shared libraries are per rank.
 *
 * Linked with the library of userlib_lib.c:
 *   ordexcc -o libuserlib.so userlib_lib.c
 *   ordexcc -o userlib.so userlib.c -L. -luserlib -Wl,-rpath,'$ORIGIN'
 * Rank r calls the library r+1 times, waits for everybody (MPI_Barrier),
 * then prints what the library counted for it.  No error; stdout, for rank r
 * (lines of different ranks may interleave), as under mpiexec:
 *   rank r: library calls r+1 total 1000+r+1 constructed 1 library rank r
 * With one copy of the library for all ranks the counts would add up across
 * ranks (rank 2 of 3 would see 6 calls).
 */
#include <mpi.h>
#include <stdio.h>

int userlib_count(void);
int userlib_constructed(void);
int userlib_rank(void);
extern int userlib_total;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int calls = 0;
    for (int i = 0; i <= rank; i++)
        calls = userlib_count();
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has counted before anyone prints */
    printf("rank %d: library calls %d total %d constructed %d library rank %d\n", rank, calls,
           userlib_total, userlib_constructed(), userlib_rank());
    MPI_Finalize();
    return 0;
}
