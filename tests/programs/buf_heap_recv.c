/* ordex-expect: ranks=2 past=A object=heap:80 bytes=16 */
/*
 * buf_heap_recv.c - rank 1 receives 12 doubles into a heap block of 10 (80
 * bytes): 16 bytes past its end, although the allocator rounded the block
 * up. The twin buf_heap_recv_ok.c receives 10.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double *v = malloc(10 * sizeof(double));
    if (rank == 0) {
        double w[12] = {0};
        MPI_Send(w, 12, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(v, 12, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    }
    free(v);
    MPI_Finalize();
    return 0;
}
