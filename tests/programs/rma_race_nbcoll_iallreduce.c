/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_nbcoll_iallreduce.c - a rank stores into the send buffer of its
 * MPI_Iallreduce before MPI_Wait.  The send buffer must not be modified
 * until the operation completes (MPI 3.1 5.12): a data race.  The twin
 * rma_race_nbcoll_iallreduce_ok.c stores after the wait and reads the
 * receive buffer only then.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, s = 1, t = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Iallreduce(&s, &t, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r); /* [A] */
    s = 2;                                                            /* [B] */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    printf("rank %d: %d\n", rank, t);
    MPI_Finalize();
    return 0;
}
