/*
 * iprobe_once.c - a message sent before a barrier is not yet visible after it.
 *
 * Needs 2 ranks (extra ranks are idle).  Rank 1 starts sending its settings to
 * rank 0 (MPI_Isend, tag 1) and then enters a barrier.  After the barrier,
 * rank 0 looks once with MPI_Iprobe whether the settings are there, because
 * its author assumed that a message sent before a barrier can be seen after
 * it.  MPI does not promise that (a message may still be on its way, and
 * MPI_Iprobe may say "not yet" even when it is there): if MPI_Iprobe finds
 * nothing, rank 0 waits for settings on a "resend" tag (2) that rank 1 never
 * uses, while rank 1 waits for its first send to complete.
 *
 * Run:
 *   ./ordex run     -n 2 examples/iprobe_once.c
 *   ./ordex explore -n 2 examples/iprobe_once.c
 *   mpicc -o iprobe_once examples/iprobe_once.c && mpiexec -n 2 ./iprobe_once
 *
 * Expected ordex verdicts (n >= 2):
 *   run: no error (the message is there when rank 0 looks, and MPI_Iprobe
 *        sees it); stdout below.
 *   explore: deadlock in the ordering where MPI_Iprobe at [PROBE] says "not
 *        yet": rank 0 blocked in MPI_Recv(source=1, tag=2) at [RESEND]; rank
 *        1's message (sent at [SEND]) is never received.  Found with buffered
 *        sends already.
 *   --no-test-later: no error (MPI_Iprobe then always succeeds when it can).
 *   n = 1: the program prints a note and exits: no error.
 * Real MPICH 4.0: completes (n=2: 20 of 20 runs, n=4: 10 of 10; the small
 * message is sent eagerly and has arrived by the time the barrier is over).
 *
 * Expected stdout when it completes:
 *   rank 0: settings 42
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        printf("iprobe_once: needs 2 ranks, nothing to do\n");
        fflush(stdout);
        MPI_Finalize();
        return 0;
    }

    if (rank == 1) {
        int settings = 42;
        MPI_Request req;
        MPI_Isend(&settings, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &req); /* [SEND] */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
        int settings = 0, there = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Iprobe(1, 1, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE); /* [PROBE] */
        if (there) {
            MPI_Recv(&settings, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            /* BUG: "not there yet" is taken to mean "not sent", and rank 0
             * waits for a resend that never comes. */
            MPI_Recv(&settings, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [RESEND] */
        }
        printf("rank 0: settings %d\n", settings);
        fflush(stdout);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
