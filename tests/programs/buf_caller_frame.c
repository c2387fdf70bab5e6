/* ordex-expect: ranks=2 past=A object=data bytes=16 */
/*
 * buf_caller_frame.c - the receive is made by a helper into a pointer to
 * int data[16], a local of its caller (main): the object is found in the
 * caller's frame, and 20 ints reach 16 bytes past it. The twin
 * buf_caller_frame_ok.c receives 16.
 */
#include <mpi.h>

static void receive(int *buf, int n) {
    MPI_Recv(buf, n, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
}

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int data[16];
    if (rank == 0) {
        int out[20] = {0};
        MPI_Send(out, 20, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        receive(data, 20);
    }
    MPI_Finalize();
    return 0;
}
