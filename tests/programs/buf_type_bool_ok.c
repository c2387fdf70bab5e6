/* ordex-expect: ranks=2 clean */
/*
 * buf_type_bool_ok.c - the correct twin of buf_type_bool.c: sends the
 * values as 4 x MPI_C_BOOL.
 */
#include <mpi.h>
#include <stdbool.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    bool x[4];
    if (rank == 0) {
        for (int i = 0; i < 4; i++)
            x[i] = i % 2;
        MPI_Send(x, 4, MPI_C_BOOL, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        bool y[4];
        MPI_Recv(y, 4, MPI_C_BOOL, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
