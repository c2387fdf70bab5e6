/*
 * poll_forever.c - a rank polls for a message nobody sends.  Needs 2 ranks.
 *
 * argv[1] = same (default): rank 0 loops on MPI_Iprobe and nothing else, so
 * every iteration is the same state: ordex reports [livelock] on rank 0 at
 * the line marked FAULT at once ("came back to the same state").
 * argv[1] = count: the loop also counts its polls, so no two iterations are
 * the same; ordex reports the livelock when the step timeout has passed
 * ("polled in vain"), at the line marked COUNT.
 * Rank 1 waits in the barrier; exit status 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, flag = 0;
    volatile long polls = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int count = argc > 1 && strcmp(argv[1], "count") == 0;
    if (rank == 0 && !count)
        while (!flag)
            MPI_Iprobe(1, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); /* FAULT */
    if (rank == 0 && count)
        while (!flag) {
            MPI_Iprobe(1, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); /* COUNT */
            polls++;
        }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
