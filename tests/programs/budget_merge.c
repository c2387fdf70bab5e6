/*
 * budget_merge.c - one state reached with different numbers of departures
 * from the default message order; a deadlock one departure further on.
 *
 * Needs 3 ranks.  In each of four rounds (separated by barriers) ranks 1
 * and 2 each send one int to rank 0, rank 1 first, and rank 0 receives both
 * with MPI_ANY_SOURCE.  Rank 0 scores the rounds in which rank 2's message
 * came first: 2 points in round 0, 1 point in rounds 1 and 2.  A score of 2
 * before round 3 is reached after one departure (round 0) or after two
 * (rounds 1 and 2), and both lead to the same state.  If rank 2's message
 * also comes first in round 3, rank 0 waits for a message that never comes
 * (FAULT): that needs 2 departures through round 0, 3 the other way.
 *   ordex run -n 3: no error, stdout "rank 0: score 0".
 *   ordex explore -n 3: [deadlock] at FAULT; so does --strategy=dfs-branches
 *   --branches 2, which reaches the state before round 3 with no departure
 *   left first (rounds 1 and 2) and must explore it again when it comes with
 *   one left (round 0); --branches 1: no error.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        MPI_Finalize();
        return 0;
    }
    static const int points[4] = {2, 1, 1, 0};
    int score = 0;
    for (int round = 0; round < 4; round++) {
        if (rank == 0) {
            /* Every local is set before the receives: the state before round 3
             * must not depend on how an earlier round went. */
            MPI_Status st = {0};
            int v = 0, two_first = 0;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, &st);
            two_first = st.MPI_SOURCE == 2;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (round == 3 && score == 2 && two_first) { /* BUG: expects a bonus message */
                MPI_Recv(&v, 1, MPI_INT, 2, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* FAULT */
            }
            score += two_first ? points[round] : 0;
        } else if (rank <= 2) {
            MPI_Send(&rank, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0) {
        printf("rank 0: score %d\n", score);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
