/*
 * comm_create_overlap.c - MPI_Comm_create with overlapping groups, which MPI
 * forbids (MPI 3.1 section 6.4.2: every member of a non-empty group must
 * pass that same group, so the groups are disjoint).  With 3 ranks, rank 0
 * passes {0, 1} while ranks 1 and 2 pass {1, 2}: rank 1 is in both.
 * ordex: an MPI error at the MPI_Comm_create (FAULT) of rank 0, whose group
 * names rank 1, which passes another group.  The twin with disjoint groups
 * is comm_create_disjoint.c.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Group world, mine;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int low[] = {0, 1}, high[] = {1, 2};
    MPI_Group_incl(world, 2, rank == 0 ? low : high, &mine);
    MPI_Comm c;
    MPI_Comm_create(MPI_COMM_WORLD, mine, &c); /* FAULT */
    printf("rank %d: created\n", rank);
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Group_free(&mine);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
