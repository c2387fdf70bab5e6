/*
 * poll_bounded.c - polling a bounded number of times, then giving up, is
 * correct MPI.  Needs 2 ranks.  Rank 0 asks MPI_Iprobe five times for a
 * message that never comes, then posts a receive, tests it three times and
 * cancels it; then both ranks meet in a barrier.
 *
 * Real MPICH prints (rank 0):
 *   rank 0: no message after 5 tries
 *   rank 0: test gave up
 * ordex run, explore and predict: the same output, no error, exit status 0.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, flag = 0, tries = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        while (!flag && tries < 5) {
            MPI_Iprobe(1, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            tries++;
        }
        printf("rank 0: %s after %d tries\n", flag ? "message" : "no message", tries);
        MPI_Request req;
        int x = 0, done = 0;
        MPI_Irecv(&x, 1, MPI_INT, 1, 98, MPI_COMM_WORLD, &req);
        for (int i = 0; i < 3 && !done; i++)
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done) {
            MPI_Cancel(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        printf("rank 0: test %s\n", done ? "done" : "gave up");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
