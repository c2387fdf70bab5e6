/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_p2p_irecv_overlap.c - rank 1 posts two MPI_Irecv whose buffers
 * overlap (ints 0-3 and ints 2-5 of one array) and waits for both.  Each
 * pending receive may write its buffer at any moment until it completes
 * (MPI 3.1 3.7.2): the two messages' writes of ints 2-3 are unordered, a
 * data race between the receives.  The twin
 * rma_race_p2p_irecv_disjoint_ok.c receives into ints 0-3 and 4-7.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    MPI_Request req[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int v[4] = {1, 2, 3, 4}, w[4] = {5, 6, 7, 8};
        MPI_Send(v, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(w, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else {
        MPI_Irecv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &req[0]);     /* [A] */
        MPI_Irecv(a + 2, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &req[1]); /* [B] */
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        printf("rank 1: %d\n", a[2]);
    }
    MPI_Finalize();
    return 0;
}
