/*
 * wildcard_deadlock.c - a wildcard receive that can steal the wrong message.
 *
 * Needs 3 ranks (extra ranks are idle).  Ranks 0 and 2 each send one result to
 * rank 1.  Rank 1 first takes "whichever result is ready" with MPI_ANY_SOURCE
 * (line 58) and then asks specifically for rank 2's result (line 61),
 * because its author assumed rank 0 always answers first.
 *   - If the wildcard receive matches rank 0's message, the second receive gets
 *     rank 2's message and everything completes.
 *   - If the wildcard receive matches rank 2's message, the receive from rank 2 at
 *     line 61 can never be satisfied (rank 2 sends only once) and rank 0's
 *     message is never received: deadlock.
 *
 * Run:
 *   ./ordex run     -n 3 examples/wildcard_deadlock.c
 *   ./ordex explore -n 3 examples/wildcard_deadlock.c
 *   mpicc -o wildcard_deadlock examples/wildcard_deadlock.c && mpiexec -n 3 ./wildcard_deadlock
 *
 * Expected ordex verdicts (n = 3):
 *   run: no error in the natural order (rank 0 runs first, so its message is sent
 *        first and matched first by line 58); stdout below.
 *   explore: deadlock in the ordering where rank 2's message (line 53 on rank
 *        2) matches the MPI_ANY_SOURCE receive at line 58: rank 1 blocked in
 *        MPI_Recv from rank 2 at line 61; rank 0's message stays unmatched (and
 *        without buffering rank 0 stays blocked in MPI_Send at line 53).
 *   n < 3: the program prints a note and exits: no error.
 * Real MPICH, n=3, 20 runs (timeout 5 s): 12 completed, 8 hung.
 *
 * Expected stdout when it completes:
 *   rank 0: sent 100 to rank 1
 *   rank 2: sent 300 to rank 1
 *   rank 1: first result 100, result of rank 2 300
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        if (rank == 0) {
            printf("wildcard_deadlock: needs 3 ranks, nothing to do\n");
            fflush(stdout);
        }
        MPI_Finalize();
        return 0;
    }

    if (rank == 0 || rank == 2) {
        int result = (rank + 1) * 100;
        MPI_Send(&result, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [SEND] */
        printf("rank %d: sent %d to rank 1\n", rank, result);
        fflush(stdout);
    } else if (rank == 1) {
        int first, second;
        MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 0, // [ANY]
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        /* BUG: assumes the wildcard receive above took rank 0's result. */
        MPI_Recv(&second, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [FROM2] */
        printf("rank 1: first result %d, result of rank 2 %d\n", first, second);
        fflush(stdout);
    }

    MPI_Finalize();
    return 0;
}
