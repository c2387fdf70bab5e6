/* ordex-expect: ranks=3 clean */
/*
 * rma_race_nbcoll_ibcast_ok.c - the root reads its MPI_Ibcast buffer before
 * the wait (a pending broadcast only reads the root's buffer), the others
 * read theirs only after MPI_Wait: no race.  Twin of
 * rma_race_nbcoll_ibcast.c.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, x[4] = {0, 0, 0, 0}, y = -1;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        x[0] = 5;
    MPI_Ibcast(x, 4, MPI_INT, 0, MPI_COMM_WORLD, &r);
    if (rank == 0)
        y = x[0];
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank != 0)
        y = x[0];
    printf("rank %d: %d\n", rank, y);
    MPI_Finalize();
    return 0;
}
