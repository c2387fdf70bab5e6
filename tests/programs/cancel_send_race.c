/*
 * cancel_send_race.c - a rank cancels a send that another rank's wildcard
 * receive may still take (4 ranks).
 *
 * Ranks 1 and 3 send one value (1, 3) to rank 0 with MPI_Isend, one token to
 * rank 2, and wait for both.  Rank 2 sends 2 to rank 0 with MPI_Isend, then
 * takes a token from any source, and cancels its send: when rank 0 has not
 * taken the 2 yet, the cancel succeeds and rank 2 sends 22 instead.  Rank 0
 * takes three values from any source and prints them in arrival order.
 *
 * With standard sends unbuffered, rank 0 may get 22 in any of the three
 * places, or 2: 12 outcomes.  The delivery of a token to rank 2 looks
 * independent of rank 0's receives (another rank), but rank 2 then withdraws
 * a message rank 0 could take: a reduction that ordered them once lost
 * three of the outcomes.  With buffered sends the MPI_Isend is complete at
 * once and the cancel fails: 6 outcomes.  No error.  stdout: "rank 0: got A
 * B C" (a permutation of 1, 2 or 22, 3) and "rank 2: cancelled 0|1".
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            printf("cancel_send_race: run with 4 ranks\n");
        MPI_Finalize();
        return 0;
    }
    if (rank == 0) {
        int got[3];
        for (int i = 0; i < 3; i++)
            MPI_Recv(&got[i], 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: got %d %d %d\n", got[0], got[1], got[2]);
    } else if (rank == 2) {
        int v = 2, again = 22, token[2], cancelled = 0;
        MPI_Request req;
        MPI_Status st;
        MPI_Isend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Recv(&token[0], 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Cancel(&req);
        MPI_Wait(&req, &st);
        MPI_Test_cancelled(&st, &cancelled);
        if (cancelled)
            MPI_Send(&again, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&token[1], 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 2: cancelled %d\n", cancelled);
    } else {
        int v = rank, token = rank;
        MPI_Request req[2];
        MPI_Isend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&token, 1, MPI_INT, 2, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
