/* ordex-expect: ranks=2 type=A object=n byte=0 types=MPI_CHAR,int */
/*
 * buf_type_char.c - int n[2] received as 8 x MPI_CHAR: characters into
 * ints. The twin buf_type_char_ok.c receives chars into char s[8], and ints
 * into a char array used as raw storage (not typed).
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n[2] = {0, 0};
    if (rank == 0)
        MPI_Send("abcdefg", 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(n, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    MPI_Finalize();
    return 0;
}
