/* ordex-expect: ranks=2 past=A object=heap:16 bytes=8 */
/*
 * buf_bottom.c - a type built from the absolute address of a heap block of
 * 4 ints, but with 6 of them, sent from MPI_BOTTOM: the block reaches 8
 * bytes past the heap block. The twin buf_bottom_ok.c sends from MPI_BOTTOM
 * a struct type made of the absolute addresses of two separate variables,
 * an int and a double[3] (each block within its own object).
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *h = calloc(4, sizeof(int));
    MPI_Aint addr;
    MPI_Get_address(h, &addr);
    MPI_Datatype abs6;
    MPI_Type_create_hindexed(1, (int[]){6}, &addr, MPI_INT, &abs6);
    MPI_Type_commit(&abs6);
    if (rank == 0)
        MPI_Send(MPI_BOTTOM, 1, abs6, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(MPI_BOTTOM, 1, abs6, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&abs6);
    free(h);
    MPI_Finalize();
    return 0;
}
