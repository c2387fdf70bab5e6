/*
 * datatypes.c - derived datatypes: a vector (one matrix column) and a struct
 * (int + double + char[3]) with resized extent, sent by rank 0 to rank 1.
 *
 * Rank 1 prints what it received.  No error; stdout equals real MPICH's:
 *   rank 1: column 2 12 22 32
 *   rank 1: rec i=I d=D c=C  (twice)
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct rec {
    int i;
    double d;
    char c[3];
};

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype col, tmp, rect;
    MPI_Type_vector(4, 1, 4, MPI_INT, &col);
    MPI_Type_commit(&col);
    int bl[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(struct rec, i), offsetof(struct rec, d), offsetof(struct rec, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Type_create_struct(3, bl, disp, types, &tmp);
    MPI_Type_create_resized(tmp, 0, sizeof(struct rec), &rect);
    MPI_Type_commit(&rect);
    if (rank == 0) {
        int m[16];
        for (int k = 0; k < 16; k++) {
            m[k] = (k / 4) * 10 + k % 4;
        }
        struct rec r[2] = {{7, 2.5, {'a', 'b', 'c'}}, {-3, -0.125, {'x', 'y', 'z'}}};
        MPI_Send(&m[2], 1, col, 1, 0, MPI_COMM_WORLD);
        MPI_Send(r, 2, rect, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int c[4];
        struct rec r[2];
        MPI_Recv(c, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(r, 2, rect, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: column %d %d %d %d\n", c[0], c[1], c[2], c[3]);
        for (int k = 0; k < 2; k++) {
            printf("rank 1: rec i=%d d=%g c=%.3s\n", r[k].i, r[k].d, r[k].c);
        }
    }
    MPI_Type_free(&col);
    MPI_Type_free(&tmp);
    MPI_Type_free(&rect);
    MPI_Finalize();
    return 0;
}
