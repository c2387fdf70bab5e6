/* ordex-expect: ranks=2 clean */
/*
 * buf_bsend_attach_ok.c - the correct twin of buf_bsend_attach.c: attaches
 * sizeof space.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char space[256];
    MPI_Buffer_attach(space, sizeof space); /* [A] */
    int x = rank;
    if (rank == 0)
        MPI_Bsend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    void *back;
    int size;
    MPI_Buffer_detach(&back, &size);
    MPI_Finalize();
    return 0;
}
