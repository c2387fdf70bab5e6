/*
 * getpid_ranks.c - every rank is a process of its own: a pid of its own,
 * the same for its whole life, that kill() accepts.
 *
 * No error; output:
 *   rank r: pid stable, kill(pid, 0) = 0        (every rank)
 *   rank 0: distinct pids: N of N
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int pid = (int)getpid();
    int *all = malloc(sizeof(int) * (size_t)size);
    MPI_Gather(&pid, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: pid %s, kill(pid, 0) = %d\n", rank,
           (int)getpid() == pid ? "stable" : "changed", kill(getpid(), 0));
    if (rank == 0) {
        int distinct = 0;
        for (int i = 0; i < size; i++) {
            int seen = 0;
            for (int j = 0; j < i; j++)
                seen |= all[j] == all[i];
            distinct += !seen;
        }
        printf("rank 0: distinct pids: %d of %d\n", distinct, size);
    }
    free(all);
    MPI_Finalize();
    return 0;
}
