/* ordex-expect: ranks=2 clean */
/*
 * buf_global_send_ok.c - the correct twin of buf_global_send.c: sends 10.
 */
#include <mpi.h>

int table[10];

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < 10; i++)
            table[i] = i;
        MPI_Send(table, 10, MPI_INT, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        int got[11];
        MPI_Recv(got, 10, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
