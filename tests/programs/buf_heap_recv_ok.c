/* ordex-expect: ranks=2 clean */
/*
 * buf_heap_recv_ok.c - the correct twin of buf_heap_recv.c: receives 10.
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
        MPI_Send(w, 10, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(v, 10, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    }
    free(v);
    MPI_Finalize();
    return 0;
}
