/*
 * bcast_sync.c - correct only if MPI_Bcast does not synchronise.
 *
 * Rank 0 broadcasts a value (line 57) and then sends rank 1 a token with
 * MPI_Ssend (line 58).  Rank 1 first receives the token (line 61) and only
 * then joins the broadcast (line 62).  Other ranks just join the broadcast.
 *   - If the root may leave MPI_Bcast before the others have entered it (MPICH does
 *     this for small messages: the root sends eagerly and returns), the root reaches
 *     its MPI_Ssend, rank 1 receives the token, enters the broadcast and gets the
 *     value: the program completes.
 *   - If MPI_Bcast synchronises (the standard allows a collective to block until
 *     all members have called it), the root waits in MPI_Bcast for rank 1, and rank 1
 *     waits in MPI_Recv for the root's MPI_Ssend: deadlock.
 * A portable program must not depend on this: move rank 1's receive after its
 * broadcast.
 *
 * Run:
 *   ./ordex run     -n 2 examples/bcast_sync.c
 *   ./ordex explore -n 2 examples/bcast_sync.c
 *   mpicc -o bcast_sync examples/bcast_sync.c && mpiexec -n 2 ./bcast_sync
 *
 * Expected ordex verdicts (n >= 2):
 *   explore: deadlock when MPI_Bcast synchronises: rank 0 blocked in MPI_Bcast at
 *            line 57, rank 1 blocked in MPI_Recv at line 61; ranks >= 2, if
 *            any, blocked in MPI_Bcast at line 65.
 *   run: deadlock (same report) where ordex completes a collective only once all
 *        members have entered it (as ordex run does now, wait-for cycle rank 0 ->
 *        rank 1 -> rank 0); no error and the stdout below under a model in which the
 *        root may leave MPI_Bcast early, as MPICH does.
 *   n = 1: the program prints a note and exits: no error.
 * Real MPICH 4.0: completes for n = 2 and n = 4.
 *
 * Expected stdout when it completes:
 *   rank 0: broadcast 42, sent token 7 to rank 1
 *   rank 1: token 7 before the broadcast, then broadcast value 42
 *   rank r: broadcast value 42                  (each r >= 2)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        printf("bcast_sync: needs at least 2 ranks, nothing to do\n");
        fflush(stdout);
        MPI_Finalize();
        return 0;
    }

    int value = 0, token = 0;
    if (rank == 0) {
        value = 42;
        token = 7;
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);    /* [BCAST0] */
        MPI_Ssend(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [SSEND] */
        printf("rank 0: broadcast %d, sent token %d to rank 1\n", value, token);
    } else if (rank == 1) {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [RECV] */
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);                      /* [BCAST1] */
        printf("rank 1: token %d before the broadcast, then broadcast value %d\n", token, value);
    } else {
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); /* [BCASTN] */
        printf("rank %d: broadcast value %d\n", rank, value);
    }
    fflush(stdout);

    MPI_Finalize();
    return 0;
}
