/* ordex-expect: ranks=2 type=A object=r byte=0 types=MPI_DOUBLE,int */
/*
 * buf_struct_zero_displs.c - a struct type whose displacements were never
 * filled in (left at 0): both members' elements lie at byte 0, so the
 * double is read from the int i. The twin buf_struct_zero_displs_ok.c fills
 * them in with offsetof.
 */
#include <mpi.h>
#include <stddef.h>

struct pair {
    int i;
    double d;
};

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct pair r = {0, 0.0};
    MPI_Datatype t;
    MPI_Aint displs[2] = {0, 0};
    MPI_Type_create_struct(2, (int[]){1, 1}, displs, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        r.d = 4.0;
        MPI_Send(&r, 1, t, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        char raw[sizeof r];
        MPI_Recv(raw, sizeof raw, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
