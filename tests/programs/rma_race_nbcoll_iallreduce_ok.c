/* ordex-expect: ranks=2 clean */
/*
 * rma_race_nbcoll_iallreduce_ok.c - a rank reads the send buffer of its
 * pending MPI_Iallreduce (allowed: the operation only reads it), and
 * touches both buffers freely after MPI_Wait.  Twin of
 * rma_race_nbcoll_iallreduce.c.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, s = 1, t = 0, u;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Iallreduce(&s, &t, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    u = s;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    s = t + u;
    printf("rank %d: %d\n", rank, s);
    MPI_Finalize();
    return 0;
}
