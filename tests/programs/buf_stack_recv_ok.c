/* ordex-expect: ranks=2 clean */
/*
 * buf_stack_recv_ok.c - the correct twin of buf_stack_recv.c: receives
 * 1,000.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int a[1000];
    if (rank == 0) {
        int *data = calloc(2000, sizeof(int));
        MPI_Send(data, 1000, MPI_INT, 1, 0, MPI_COMM_WORLD);
        free(data);
    } else if (rank == 1) {
        MPI_Recv(a, 1000, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    }
    MPI_Finalize();
    return 0;
}
