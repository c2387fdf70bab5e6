/* ordex-expect: ranks=2 clean */
/*
 * rma_race_p2p_isend_load_ok.c - rank 0 sends an array with MPI_Isend and,
 * while the send is pending, reads the array and sends it again from the
 * same buffer with a second MPI_Isend.  Since MPI 3.0 a pending send's
 * buffer may be read (MPI 3.1 3.7.2: the sender may access it but not
 * modify it): no race.  Rank 1 gets 1 2 3 4 twice; rank 0 read a sum of 10.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, a[4] = {1, 2, 3, 4}, sum = 0, got[8];
    MPI_Request req[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
        for (int i = 0; i < 4; i++)
            sum += a[i];
        MPI_Isend(a, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        printf("rank 0: %d\n", sum);
    } else {
        MPI_Recv(got, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(got + 4, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: %d %d %d %d %d %d %d %d\n", got[0], got[1], got[2], got[3], got[4], got[5],
               got[6], got[7]);
    }
    MPI_Finalize();
    return 0;
}
