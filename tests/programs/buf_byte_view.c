/* ordex-expect: ranks=2 past=A object=r bytes=4 */
/*
 * buf_byte_view.c - a struct sent as raw bytes with MPI_BYTE, but 4 bytes
 * more than sizeof r. The twin buf_byte_view_ok.c sends sizeof r bytes (an
 * MPI_BYTE view of anything is fine).
 */
#include <mpi.h>

struct rec {
    int id;
    double v[2];
    char tag[3];
};

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct rec r = {rank, {1.0, 2.0}, "ab"};
    if (rank == 0)
        MPI_Send(&r, sizeof r + 4, MPI_BYTE, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(&r, sizeof r, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
