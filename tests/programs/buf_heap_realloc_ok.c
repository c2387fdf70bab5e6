/* ordex-expect: ranks=2 clean */
/*
 * buf_heap_realloc_ok.c - the correct twin of buf_heap_realloc.c: sends 60.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *p = calloc(100, sizeof(int));
    p = realloc(p, 60 * sizeof(int)); /* kept in place, now 240 bytes */
    if (rank == 0)
        MPI_Send(p, 60, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(p, 60, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(p);
    MPI_Finalize();
    return 0;
}
