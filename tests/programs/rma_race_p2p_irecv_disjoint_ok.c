/* ordex-expect: ranks=2 clean */
/*
 * rma_race_p2p_irecv_disjoint_ok.c - twin of rma_race_p2p_irecv_overlap.c:
 * rank 1 posts two MPI_Irecv into ints 0-3 and 4-7 of one array.  The
 * buffers are disjoint, so the pending receives never write the same byte
 * (MPI 3.1 3.7.2): no race.  Rank 1 reads 1 ... 8.
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
        MPI_Irecv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(a + 4, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        printf("rank 1: %d %d %d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    }
    MPI_Finalize();
    return 0;
}
