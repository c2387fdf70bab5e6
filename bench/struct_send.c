/*
 * struct_send.c - rank 0 sends rank 1 `msgs` messages of `elems` C structs
 * {int; double; char[3]}, described in one of three ways:
 *
 *   struct    MPI_Type_create_struct of MPI_INT, MPI_DOUBLE, 3 x MPI_CHAR
 *   hindexed  the same bytes as an hindexed type of MPI_BYTE blocks
 *   mixed     sent as the struct type, received as an equivalent struct
 *             built another way (MPI_INT, MPI_DOUBLE, contiguous(3, MPI_CHAR))
 *
 * Both layouts move exactly the same bytes (15 of every 24), so any
 * difference in time or memory between them comes from handling the type
 * signature.  Rank 1 checks every element it receives.
 *
 *   usage: struct_send struct|hindexed|mixed MSGS ELEMS
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct item {
    int i;
    double d;
    char c[3];
} item;

static MPI_Datatype struct_type(void) {
    int bl[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(item, i), offsetof(item, d), offsetof(item, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype t, r;
    MPI_Type_create_struct(3, bl, disp, types, &t);
    MPI_Type_create_resized(t, 0, sizeof(item), &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    return r;
}

static MPI_Datatype struct_type_other(void) {
    MPI_Datatype chars, t, r;
    MPI_Type_contiguous(3, MPI_CHAR, &chars);
    int bl[3] = {1, 1, 1};
    MPI_Aint disp[3] = {offsetof(item, i), offsetof(item, d), offsetof(item, c)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, chars};
    MPI_Type_create_struct(3, bl, disp, types, &t);
    MPI_Type_create_resized(t, 0, sizeof(item), &r);
    MPI_Type_free(&t);
    MPI_Type_free(&chars);
    MPI_Type_commit(&r);
    return r;
}

static MPI_Datatype bytes_type(void) {
    int bl[3] = {sizeof(int), sizeof(double), 3};
    MPI_Aint disp[3] = {offsetof(item, i), offsetof(item, d), offsetof(item, c)};
    MPI_Datatype t, r;
    MPI_Type_create_hindexed(3, bl, disp, MPI_BYTE, &t);
    MPI_Type_create_resized(t, 0, sizeof(item), &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    return r;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 4 ||
        (strcmp(argv[1], "struct") && strcmp(argv[1], "hindexed") && strcmp(argv[1], "mixed"))) {
        if (rank == 0)
            fprintf(stderr, "usage: struct_send struct|hindexed|mixed MSGS ELEMS\n");
        MPI_Finalize();
        return 2;
    }
    int msgs = atoi(argv[2]), elems = atoi(argv[3]);
    int mixed = !strcmp(argv[1], "mixed");
    MPI_Datatype t = !strcmp(argv[1], "hindexed") ? bytes_type() : struct_type();
    if (mixed && rank == 1) {
        MPI_Type_free(&t);
        t = struct_type_other();
    }
    item *buf = calloc((size_t)elems, sizeof(item));
    long bad = 0;
    for (int m = 0; m < msgs; m++) {
        if (rank == 0) {
            for (int k = 0; k < elems; k++)
                buf[k] = (item){k + m, k * 0.5, {(char)k, (char)m, 'x'}};
            MPI_Send(buf, elems, t, 1, m, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Status st;
            int got = -1;
            MPI_Recv(buf, elems, t, 0, m, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, t, &got);
            bad += got != elems;
            for (int k = 0; k < elems; k++)
                bad += buf[k].i != k + m || buf[k].d != k * 0.5 || buf[k].c[0] != (char)k ||
                       buf[k].c[1] != (char)m || buf[k].c[2] != 'x';
        }
    }
    if (rank == 1)
        printf("%s: %d messages of %d elements, %ld wrong\n", argv[1], msgs, elems, bad);
    free(buf);
    MPI_Type_free(&t);
    MPI_Finalize();
    return bad != 0;
}
