/*
 * struct_array_mismatch.c - rank 0 sends rank 1 two messages of 1000 structs
 * {int; double; char[3]} as an MPI struct type.  Rank 1 receives the first
 * as an equivalent type built another way (contiguous(999) of the struct
 * followed by one more struct, its chars a contiguous type), which matches,
 * and the second as a type whose last struct has MPI_UNSIGNED_CHAR chars,
 * which does not: the 4998th basic element differs.
 *
 * ordex must report: [mpi_error] on rank 1 about the type signatures,
 * "element 4997 is MPI_CHAR in the message but MPI_UNSIGNED_CHAR in the
 * receive type", at struct_array_mismatch.c on the line marked FAULT (the
 * second MPI_Recv); rank 1 prints "rank 1: first message ok" before it;
 * exit status 1.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1000

struct rec {
    int i;
    double d;
    char c[3];
};

static MPI_Datatype rec_type(MPI_Datatype chars, int nchars) {
    int bl[3] = {1, 1, nchars};
    MPI_Aint disp[3] = {offsetof(struct rec, i), offsetof(struct rec, d), offsetof(struct rec, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, chars};
    MPI_Datatype t, r;
    MPI_Type_create_struct(3, bl, disp, types, &t);
    MPI_Type_create_resized(t, 0, sizeof(struct rec), &r);
    MPI_Type_free(&t);
    return r;
}

/* N-1 elements of `most`, then one of `last`, as one type. */
static MPI_Datatype array_type(MPI_Datatype most, MPI_Datatype last) {
    MPI_Datatype head, t;
    MPI_Type_contiguous(N - 1, most, &head);
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, (MPI_Aint)((N - 1) * sizeof(struct rec))};
    MPI_Datatype types[2] = {head, last};
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_free(&head);
    MPI_Type_commit(&t);
    return t;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct rec *r = calloc(N, sizeof *r);
    if (rank == 0) {
        MPI_Datatype rec = rec_type(MPI_CHAR, 3);
        MPI_Type_commit(&rec);
        for (int k = 0; k < N; k++)
            r[k] = (struct rec){k, k * 0.5, {'a', 'b', (char)('a' + k % 26)}};
        MPI_Send(r, N, rec, 1, 0, MPI_COMM_WORLD);
        MPI_Send(r, N, rec, 1, 1, MPI_COMM_WORLD);
        MPI_Type_free(&rec);
    } else if (rank == 1) {
        MPI_Datatype chars, same_chars, unsigned_chars;
        MPI_Type_contiguous(3, MPI_CHAR, &chars);
        same_chars = rec_type(chars, 1);
        unsigned_chars = rec_type(MPI_UNSIGNED_CHAR, 3);
        MPI_Datatype good = array_type(same_chars, same_chars);
        MPI_Datatype bad = array_type(same_chars, unsigned_chars);
        MPI_Recv(r, 1, good, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int wrong = 0;
        for (int k = 0; k < N; k++)
            wrong += r[k].i != k || r[k].d != k * 0.5 || r[k].c[2] != (char)('a' + k % 26);
        printf("rank 1: first message %s\n", wrong ? "wrong" : "ok");
        fflush(stdout);
        MPI_Recv(r, 1, bad, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* FAULT */
        MPI_Type_free(&good);
        MPI_Type_free(&bad);
        MPI_Type_free(&chars);
        MPI_Type_free(&same_chars);
        MPI_Type_free(&unsigned_chars);
    }
    free(r);
    MPI_Finalize();
    return 0;
}
