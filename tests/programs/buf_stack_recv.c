/* ordex-expect: ranks=2 past=A object=a bytes=4000 */
/*
 * buf_stack_recv.c - rank 1 receives 2,000 ints into int a[1000] on its
 * stack: the receive would write 4,000 bytes past the array's end (no
 * output shows it: the bytes land in whatever lies above). The twin
 * buf_stack_recv_ok.c receives 1,000.
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
        MPI_Send(data, 2000, MPI_INT, 1, 0, MPI_COMM_WORLD);
        free(data);
    } else if (rank == 1) {
        MPI_Recv(a, 2000, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    }
    MPI_Finalize();
    return 0;
}
