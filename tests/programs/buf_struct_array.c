/* ordex-expect: ranks=2 past=A object=pts bytes=16 */
/*
 * buf_struct_array.c - an array of 4 structs {int; double} described by a
 * struct type built with offsetof and resized to sizeof(struct point); rank
 * 0 sends 5 of them: 16 bytes past the array. The twin
 * buf_struct_array_ok.c sends 4.
 */
#include <mpi.h>
#include <stddef.h>

struct point {
    int id;
    double v;
};

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct point pts[4] = {{0, 0.0}};
    MPI_Datatype tmp, ptype;
    MPI_Aint displs[2] = {offsetof(struct point, id), offsetof(struct point, v)};
    MPI_Type_create_struct(2, (int[]){1, 1}, displs, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &tmp);
    MPI_Type_create_resized(tmp, 0, sizeof(struct point), &ptype);
    MPI_Type_commit(&ptype);
    if (rank == 0)
        MPI_Send(pts, 5, ptype, 1, 0, MPI_COMM_WORLD); /* [A] */
    else if (rank == 1)
        MPI_Recv(pts, 4, ptype, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&tmp);
    MPI_Type_free(&ptype);
    MPI_Finalize();
    return 0;
}
