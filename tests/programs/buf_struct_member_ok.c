/* ordex-expect: ranks=2 clean */
/*
 * buf_struct_member_ok.c - the correct twin of buf_struct_member.c:
 * receives 4.
 */
#include <mpi.h>

struct msg {
    int n;
    int v[4];
};

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct msg m = {0, {0}};
    if (rank == 0) {
        int v[5] = {1, 2, 3, 4, 5};
        MPI_Send(v, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(m.v, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [A] */
    }
    MPI_Finalize();
    return 0;
}
