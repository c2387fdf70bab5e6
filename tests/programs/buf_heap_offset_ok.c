/* ordex-expect: ranks=2 clean */
/*
 * buf_heap_offset_ok.c - the correct twin of buf_heap_offset.c: sends 2.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *h = calloc(10, sizeof(int));
    if (rank == 0)
        MPI_Send(&h[8], 2, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(h, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(h);
    MPI_Finalize();
    return 0;
}
