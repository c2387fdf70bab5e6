/*
 * barrier_comm.c - a barrier called on mismatched communicators.
 *
 * The ranks are split into two halves by parity (MPI_Comm_split, colour rank % 2).
 * After a phase of work every rank should synchronise with its own half.  Rank 0,
 * which also prints the progress report, was written to call MPI_Barrier on
 * MPI_COMM_WORLD instead (line 53), while every other rank calls it on its
 * half (line 56).  Rank 0's world barrier can never complete (the others
 * never enter it), and rank 0 never enters the barrier of the even half, so the
 * other even ranks wait forever too.
 *
 * Run:
 *   ./ordex run     -n 4 examples/barrier_comm.c
 *   ./ordex explore -n 4 examples/barrier_comm.c
 *   mpicc -o barrier_comm examples/barrier_comm.c && mpiexec -n 4 ./barrier_comm
 *
 * Expected ordex verdicts:
 *   n>=2: deadlock (run and explore; no ordering avoids it): rank 0 blocked in
 *         MPI_Barrier(MPI_COMM_WORLD) at line 53; with n>=3 the other even
 *         ranks are blocked in MPI_Barrier(half) at line 56.  The odd ranks
 *         finish: their half does not contain rank 0.  (A checker may also name it
 *         "collective mismatch": world barrier on rank 0 vs barrier on a different
 *         communicator, or MPI_Finalize, on the other ranks.)
 *   n=1: no error (rank 0's half is the whole world and only one barrier is needed).
 * Real MPICH: n=2 and n=4 hang.
 *
 * Expected stdout before the hang (n=4): one line per rank
 *   rank r: half C has H ranks, my work W      (C = r % 2, W = r*r)
 * and after the barrier, from odd ranks only:
 *   rank r: half C synchronised
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm half;
    int colour = rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &half);
    int hsize;
    MPI_Comm_size(half, &hsize);

    int work = rank * rank; /* stands for this phase's computation */
    printf("rank %d: half %d has %d ranks, my work %d\n", rank, colour, hsize, work);
    fflush(stdout);

    if (rank == 0) {
        /* BUG: should be MPI_Barrier(half) like everybody else. */
        MPI_Barrier(MPI_COMM_WORLD); /* [WORLD] */
        printf("rank 0: everybody is done with the phase\n");
    } else {
        MPI_Barrier(half); /* [HALF] */
    }
    printf("rank %d: half %d synchronised\n", rank, colour);
    fflush(stdout);

    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
