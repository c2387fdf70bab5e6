/* ordex-expect: ranks=2 clean */
/*
 * buf_caller_frame_ok.c - the correct twin of buf_caller_frame.c: receives
 * 16.
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
        MPI_Send(out, 16, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        receive(data, 16);
    }
    MPI_Finalize();
    return 0;
}
