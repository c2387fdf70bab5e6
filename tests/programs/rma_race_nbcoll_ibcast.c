/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_nbcoll_ibcast.c - every rank reads the buffer of its MPI_Ibcast
 * before MPI_Wait.  The root only reads its buffer (allowed), but the other
 * ranks' buffers are written by the broadcast until the wait returns its
 * request (MPI 3.1 5.12: the buffer must not be accessed before the
 * operation completes): a data race.  The twin
 * rma_race_nbcoll_ibcast_ok.c reads after the wait.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x[4] = {0, 0, 0, 0}, y;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        x[0] = 5;
    MPI_Ibcast(x, 4, MPI_INT, 0, MPI_COMM_WORLD, &r); /* [A] */
    y = x[0];                                         /* [B] */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    printf("rank %d: %d %d\n", rank, y, x[0]);
    MPI_Finalize();
    return 0;
}
