/*
 * rand_ranks.c - every rank has the C library's random number state of a
 * new process.
 *
 * Unseeded, rand() starts as after srand(1) in every process, so every rank
 * prints the same first values.  Then rank 0 seeds with srand(7) while the
 * others go on unseeded, rank 1 draws from a state array of its own
 * (initstate/setstate) in between, and drand48 starts unseeded everywhere.
 * No error; for rank r (values are the C library's):
 *   rank r: rand A B C D
 *   rank r: then E F
 *   rank r: drand48 X Y
 * with A..D equal on every rank; E F the next two values of the unseeded
 * sequence on ranks 1.., the first two after srand(7) on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int a = rand(), b = rand();
    MPI_Barrier(MPI_COMM_WORLD); /* the other ranks draw in between */
    int c = rand(), d = rand();
    printf("rank %d: rand %d %d %d %d\n", rank, a, b, c, d);
    if (rank == 0)
        srand(7);
    if (rank == 1) {
        static char own[64];
        char *old = initstate(3, own, sizeof own);
        long x = random();
        setstate(old);
        printf("rank %d: own state %ld\n", rank, x);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int e = rand();
    MPI_Barrier(MPI_COMM_WORLD);
    int f = rand();
    printf("rank %d: then %d %d\n", rank, e, f);
    double x = drand48();
    MPI_Barrier(MPI_COMM_WORLD);
    double y = drand48();
    printf("rank %d: drand48 %.9f %.9f\n", rank, x, y);
    MPI_Finalize();
    return 0;
}
