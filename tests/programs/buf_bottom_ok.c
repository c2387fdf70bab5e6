/* ordex-expect: ranks=2 clean */
/*
 * buf_bottom_ok.c - the correct twin of buf_bottom.c: sends from MPI_BOTTOM
 * a struct type made of the absolute addresses of two separate variables,
 * an int and a double[3] (each block within its own object).
 */
#include <mpi.h>
#include <stdlib.h>

int count;
double vals[3];

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Aint addrs[2];
    MPI_Get_address(&count, &addrs[0]);
    MPI_Get_address(vals, &addrs[1]);
    MPI_Datatype both;
    MPI_Type_create_struct(2, (int[]){1, 3}, addrs, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &both);
    MPI_Type_commit(&both);
    if (rank == 0) {
        count = 3;
        MPI_Send(MPI_BOTTOM, 1, both, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(MPI_BOTTOM, 1, both, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&both);
    MPI_Finalize();
    return 0;
}
