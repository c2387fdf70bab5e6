/* ordex-expect: ranks=2 past=A object=got bytes=4 */
/*
 * buf_vla_recv.c - rank 1 receives n + 1 ints into the VLA int got[n]: the
 * receive reaches 4 bytes past its end. The VLA's bounds come from the
 * frame (the address and the bound GCC keeps for it there). The twin
 * buf_vla_recv_ok.c receives n ints.
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
        MPI_Send(out, n + 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(got, n + 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    }
    MPI_Finalize();
    return 0;
}
