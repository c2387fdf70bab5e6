/* ordex-expect: ranks=2 race=A,B run
 * known-bug: a freed send request's buffer is given back when the send
 * completes inside ordex, and a buffered send completes at once: ordex run
 * (standard sends buffered) misses the race that explore finds with
 * unbuffered sends (rma_race_p2p_request_free.c) */
/*
 * rma_race_p2p_request_free_run.c - rma_race_p2p_request_free.c under
 * `ordex run` as well: rank 0 sends x with MPI_Isend, frees the request at
 * once with MPI_Request_free and stores into x.  However MPI buffers the
 * message, the program has not learnt that the send completed (MPI 3.1
 * 3.7.3): the store races with the send in every ordering.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x = 10, got = -1;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req); /* [A] */
        MPI_Request_free(&req);
        x = 20; /* [B] */
    } else {
        MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: 10 or 20: %d\n", got == 10 || got == 20);
    }
    MPI_Finalize();
    return 0;
}
