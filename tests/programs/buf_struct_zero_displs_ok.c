/* ordex-expect: ranks=2 clean */
/*
 * buf_struct_zero_displs_ok.c - the correct twin of
 * buf_struct_zero_displs.c: fills them in with offsetof.
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
    MPI_Aint displs[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
    MPI_Type_create_struct(2, (int[]){1, 1}, displs, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        r.d = 4.0;
        MPI_Send(&r, 1, t, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        MPI_Recv(&r, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
