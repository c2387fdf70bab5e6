/*
 * deadlock_cycle.c - every rank sends first, then receives: deadlocks when MPI_Send
 * is not buffered.
 *
 * Each rank sends ONE int (its rank) to (rank+1) % size with MPI_Send (line 43),
 * then receives from (rank-1+size) % size with MPI_Recv (line 44).  The message
 * is tiny, so every real MPI buffers it (eager protocol) and the program completes.
 * But the MPI standard allows MPI_Send to wait until the matching receive is
 * posted (zero buffering, synchronous semantics); then every rank waits in
 * MPI_Send for its right neighbour, which is itself waiting in MPI_Send: a cycle.
 * The program is therefore erroneous (not "safe" in the MPI standard's words).
 * Fix: MPI_Sendrecv, or Isend + Recv + Wait, or alternate the order by parity.
 *
 * Run:
 *   ./ordex run     -n 4 examples/deadlock_cycle.c
 *   ./ordex explore -n 4 examples/deadlock_cycle.c
 *   mpicc -o deadlock_cycle examples/deadlock_cycle.c && mpiexec -n 4 ./deadlock_cycle
 *
 * Expected ordex verdicts (any n >= 1; with n = 1 rank 0 sends to itself):
 *   run (buffered standard sends, as below the eager limit): no error, stdout below.
 *   run --send-mode=rendezvous: the deadlock below.
 *   explore: deadlock when MPI_Send is not buffered: every rank blocked in MPI_Send
 *   at line 43, each waiting for its right neighbour to post the receive at
 *   line 44.  (With buffering there is no error.)
 * Real MPICH 4.0: n >= 2 completes (1 int is sent eagerly); n = 1 hangs, because
 * MPICH does not buffer a blocking send to the calling rank itself.
 *
 * Expected stdout (one line per rank):
 *   rank r: received L from rank L        (L = (r-1+size) % size)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size;
    int left = (rank - 1 + size) % size;

    int out = rank, in = -1;
    MPI_Send(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD);                  /* [SEND] */
    MPI_Recv(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [RECV] */
    printf("rank %d: received %d from rank %d\n", rank, in, left);
    fflush(stdout);

    MPI_Finalize();
    return 0;
}
