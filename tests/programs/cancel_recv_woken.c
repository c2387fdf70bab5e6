/*
 * cancel_recv_woken.c - a rank woken by another rank's receive cancels its
 * own wildcard receive (3 ranks; more ranks do nothing).
 *
 * Rank 0 posts a wildcard MPI_Irecv, sends a token to rank 1 and, once the
 * send is done, cancels the receive.  Ranks 1 and 2 each send one value (1,
 * 2) to rank 0 with MPI_Send; rank 1 posted its receive of the token first.
 * With standard sends unbuffered rank 0's send completes only when rank 1
 * takes the token: if that happens before rank 0's receive took a value,
 * the cancel succeeds and rank 0 receives both values afterwards.  The
 * token's delivery is at rank 1, yet it decides whether rank 0's receive is
 * cancelled: 4 outcomes unbuffered, 2 buffered.  No error.  stdout:
 * "rank 0: cancelled 0|1, got X Y".
 */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        if (rank == 0)
            printf("cancel_recv_woken: run with 3 ranks or more\n");
        MPI_Finalize();
        return 0;
    }
    if (rank == 0) {
        int x = -1, t = 5, cancelled = 0, y = -1;
        MPI_Request r1;
        MPI_Status st;
        MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r1);
        MPI_Send(&t, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Cancel(&r1);
        MPI_Wait(&r1, &st);
        MPI_Test_cancelled(&st, &cancelled);
        MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (cancelled)
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: cancelled %d, got %d %d\n", cancelled, x, y);
    } else if (rank == 1) {
        int v = 1, t;
        MPI_Request q;
        MPI_Irecv(&t, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &q);
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        int v = 2;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
