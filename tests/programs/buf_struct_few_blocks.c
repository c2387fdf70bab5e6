/* ordex-expect: ranks=2 type=A object=r byte=4 types=MPI_DOUBLE,int */
/*
 * buf_struct_few_blocks.c - a struct {int; int; double} described with too
 * few blocks, {MPI_INT, MPI_DOUBLE} at displacements 0 and 4: the double
 * lies on the int b. The twin buf_struct_few_blocks_ok.c describes the
 * three members.
 */
#include <mpi.h>
#include <stddef.h>

struct three {
    int a;
    int b;
    double c;
};

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct three r = {0, 0, 0.0};
    MPI_Datatype t;
    MPI_Aint displs[2] = {offsetof(struct three, a), offsetof(struct three, b)};
    MPI_Type_create_struct(2, (int[]){1, 1}, displs, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        r.c = 1.0;
        MPI_Send(&r, 1, t, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char raw[sizeof r];
        MPI_Recv(raw, sizeof raw, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
