/* ordex-expect: ranks=2 type=A object=x byte=0 types=MPI_INT,_Bool */
/*
 * buf_type_bool.c - four bools sent as one MPI_INT: 4 bytes either way, but
 * a 4-byte MPI_INT lies on a 1-byte _Bool. The twin buf_type_bool_ok.c
 * sends the values as 4 x MPI_C_BOOL.
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
        MPI_Send(x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char y[sizeof x];
        MPI_Recv(y, sizeof y, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
