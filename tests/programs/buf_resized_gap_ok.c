/* ordex-expect: ranks=2 clean */
/*
 * buf_resized_gap_ok.c - the correct twin of buf_resized_gap.c: sends 2.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int a[8] = {0};
    MPI_Datatype every4;
    MPI_Type_create_resized(MPI_INT, 0, 4 * sizeof(int), &every4); /* one int, then a gap of 3 */
    MPI_Type_commit(&every4);
    if (rank == 0)
        MPI_Send(a, 2, every4, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(a, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&every4);
    MPI_Finalize();
    return 0;
}
