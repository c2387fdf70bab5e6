/* ordex-expect: ranks=2 clean */
/*
 * buf_recv_global_ok.c - rank 1 receives 1000 ints into the global array
 * `int g[1000]`: it fits.  Twin of buf_recv_global.c (which receives
 * 2000, checked at the call, not at delivery).
 */
#include <mpi.h>

int g[1000];
int src[2000];

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(src, 1000, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else
        MPI_Recv(g, 1000, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
