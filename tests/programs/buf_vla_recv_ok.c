/* ordex-expect: ranks=2 clean */
/*
 * buf_vla_recv_ok.c - the correct twin of buf_vla_recv.c: rank 1 receives
 * n ints into the VLA int got[n].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = argc + 3;
    int got[n];
    if (rank == 0) {
        int out[8] = {0};
        MPI_Send(out, n, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(got, n, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    }
    MPI_Finalize();
    return 0;
}
