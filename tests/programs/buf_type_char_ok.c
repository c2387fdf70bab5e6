/* ordex-expect: ranks=2 clean */
/*
 * buf_type_char_ok.c - the correct twin of buf_type_char.c: receives chars
 * into char s[8], and ints into a char array used as raw storage (not
 * typed).
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char s[8], raw[2 * sizeof(int)];
    int v[2] = {rank, rank};
    if (rank == 0) {
        MPI_Send("abcdefg", 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Send(v, 2, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(s, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(raw, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
