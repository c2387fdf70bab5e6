/*
 * two_departures.c - a deadlock that needs two departures from the default
 * message order (the earliest sent message matched first).
 *
 * Needs 3 ranks.  In each of two rounds (separated by a barrier) ranks 1 and
 * 2 each send one int to rank 0, rank 1 first, and rank 0 receives both with
 * MPI_ANY_SOURCE.  Only when rank 2's message is matched first in BOTH rounds
 * does rank 0 wait for a third message from rank 2 that never comes (FAULT).
 *   ordex run -n 3: no error, stdout "rank 0: first 1 1".
 *   ordex explore -n 3: [deadlock], rank 0 in MPI_Recv(source=2, tag=9) at
 *   FAULT.  --strategy=dfs-branches finds it with --branches 2 (or more),
 *   not with --branches 1 or 0.
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
    int first[2] = {0, 0};
    for (int round = 0; round < 2; round++) {
        if (rank == 0) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, &st);
            first[round] = st.MPI_SOURCE;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank <= 2) {
            MPI_Send(&rank, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0) {
        if (first[0] == 2 && first[1] == 2) { /* BUG: expects a bonus message */
            int bonus;
            MPI_Recv(&bonus, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* FAULT */
        }
        printf("rank 0: first %d %d\n", first[0], first[1]);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
