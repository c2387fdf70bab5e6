/*
 * kill_worker.c - an ordering that kills the process exploring it.
 *
 * Ranks 1 and 2 each send one int to rank 0, which receives once with
 * MPI_ANY_SOURCE.  When rank 2's message comes first, rank 0 receives rank
 * 1's, passes four barriers with the others and then sends SIGKILL to its
 * own process (the exploration process running the ordering, which
 * nothing can catch); when rank 1's comes first, rank 0 waits for a second
 * message from rank 1, which never comes: a deadlock.
 *
 * ordex explore -n 3: the process that ran the killing ordering is lost, so
 * the search is incomplete (exit status 2), unless the deadlock was found
 * by another worker first (exit status 1; still reported incomplete).
 */
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int from;
        MPI_Status st;
        MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
        if (st.MPI_SOURCE == 2) {
            /* A few states later: another worker waiting by then has the
             * rest of the search. */
            MPI_Recv(&from, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < 4; i++)
                MPI_Barrier(MPI_COMM_WORLD);
            kill(getpid(), SIGKILL);
        }
        MPI_Recv(&from, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&from, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        for (int i = 0; i < 4; i++)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
