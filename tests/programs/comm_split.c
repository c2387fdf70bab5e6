/*
 * comm_split.c - MPI_Comm_split into groups of 2 (colour rank/2) ordered by
 * descending world rank, MPI_Comm_dup of the result, and an MPI_Allreduce and
 * point-to-point exchange inside each group.  No error; every rank prints
 *   rank r: group G rank k of n sum S partner P got V dup-compare C
 * (stdout equals real MPICH's).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm grp, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &grp);
    MPI_Comm_dup(grp, &dup);
    int k, n, sum, cmp;
    MPI_Comm_rank(grp, &k);
    MPI_Comm_size(grp, &n);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
    MPI_Comm_compare(grp, dup, &cmp);
    int partner = n > 1 ? 1 - k : MPI_PROC_NULL, got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, partner, 0, &got, 1, MPI_INT, partner, 0, dup,
                 MPI_STATUS_IGNORE);
    printf("rank %d: group %d rank %d of %d sum %d partner %d got %d dup-compare %d\n", rank,
           rank / 2, k, n, sum, partner, got, cmp == MPI_CONGRUENT);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&grp);
    MPI_Finalize();
    return 0;
}
