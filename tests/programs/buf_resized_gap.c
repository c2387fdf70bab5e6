/* ordex-expect: ranks=2 past=A object=a bytes=4 */
/*
 * buf_resized_gap.c - every fourth int of int a[8] through a type resized
 * to an extent of 4 ints; 3 elements reach a[8], 4 bytes past the array
 * (the gaps do not count, the last int does). The twin buf_resized_gap_ok.c
 * sends 2.
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
        MPI_Send(a, 3, every4, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(a, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&every4);
    MPI_Finalize();
    return 0;
}
