/* ordex-expect: ranks=2 clean */
/*
 * buf_struct_few_blocks_ok.c - the correct twin of buf_struct_few_blocks.c:
 * describes the three members.
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
    MPI_Aint displs[3] = {offsetof(struct three, a), offsetof(struct three, b),
                          offsetof(struct three, c)};
    MPI_Type_create_struct(3, (int[]){1, 1, 1}, displs,
                           (MPI_Datatype[]){MPI_INT, MPI_INT, MPI_DOUBLE}, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        r.c = 1.0;
        MPI_Send(&r, 1, t, 1, 0, MPI_COMM_WORLD); /* [A] */
    } else if (rank == 1) {
        MPI_Recv(&r, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
