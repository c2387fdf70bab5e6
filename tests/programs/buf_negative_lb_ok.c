/* ordex-expect: ranks=2 clean */
/*
 * buf_negative_lb_ok.c - the correct twin of buf_negative_lb.c: starts from
 * &a[2].
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int a[4] = {1, 2, 3, 4};
    MPI_Datatype down;
    MPI_Type_create_hvector(3, 1, -(MPI_Aint)sizeof(int), MPI_INT,
                            &down); /* a[i], a[i-1], a[i-2] */
    MPI_Type_commit(&down);
    if (rank == 0)
        MPI_Send(&a[2], 1, down, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(a, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&down);
    MPI_Finalize();
    return 0;
}
