/*
 * deadlock_else.c - an `else` that should have been `else if (rank == 1)`.
 *
 * Rank 0 sends a value to rank 1 and waits for the answer.  The code meant for
 * rank 1 sits in a plain `else` branch (line 40), so EVERY other rank runs
 * it: with 3 or more ranks, rank 2 (and up) waits in MPI_Recv (line 41) for a
 * message from rank 0 that is never sent.
 *
 * Run:
 *   ./ordex run     -n 3 examples/deadlock_else.c
 *   ./ordex explore -n 3 examples/deadlock_else.c
 *   mpicc -o deadlock_else examples/deadlock_else.c && mpiexec -n 3 ./deadlock_else
 *
 * Expected ordex verdicts:
 *   n=2: no error (run and explore); stdout:
 *        rank 1: got 42 from rank 0, answering 43
 *        rank 0: got answer 43
 *   n>=3: deadlock (run and explore: it does not depend on the ordering): ranks
 *        2..n-1 are blocked in MPI_Recv from rank 0 at line 41 with no matching
 *        send anywhere; ranks 0 and 1 have finished (they print the two lines above).
 *   n=1: rank 0 sends to rank 1, which does not exist: MPI error (invalid rank,
 *        MPI_ERR_RANK) at line 36.
 * Real MPICH: n=2 completes; n=3 hangs (rank 2 never returns from MPI_Recv).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    int value;
    if (rank == 0) {
        value = 42;
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [SEND] */
        MPI_Recv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: got answer %d\n", value);
        fflush(stdout);
    } else { /* BUG: meant `else if (rank == 1)` [ELSE] */
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [RECV] */
        printf("rank %d: got %d from rank 0, answering %d\n", rank, value, value + 1);
        fflush(stdout);
        value++;
        MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
