/* ordex-expect: ranks=2 past=A object=g bytes=4000 */
/*
 * buf_recv_global.c - rank 1 receives 2000 ints into the global array
 * `int g[1000]`: the receive may write 4000 bytes past its end (the
 * receive is checked at the call, not at delivery).  The twin
 * buf_recv_global_ok.c receives 1000.
 */
#include <mpi.h>

int g[1000];
int src[2000];

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(src, 2000, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else
        MPI_Recv(g, 2000, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    MPI_Finalize();
    return 0;
}
