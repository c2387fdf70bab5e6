/*
 * mpi31_sizes.c - size-specific types and address arithmetic: MPI_Aint_add
 * and MPI_Aint_diff (MPI 3.1 section 4.1.5), MPI_Type_match_size and
 * MPI_Type_create_f90_integer/real/complex (section 17.2.5: the smallest
 * kind with the precision and range asked, predefined, combiner
 * MPI_COMBINER_F90_*), the predefined copy callback MPI_DUP_FN (section
 * 6.7.4), and data moved with an f90 type.  A rank prints
 * "rank R: WHAT ok" per check, or WRONG.
 *
 *   mpi31_sizes          all checks; no finding; output equals real MPICH's
 *   mpi31_sizes free     MPI_Type_free of an f90 type (marked FREE): an MPI
 *                        error (predefined types cannot be freed)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void report(const char *what, int ok) {
    printf("rank %d: %s %s\n", rank, what, ok ? "ok" : "WRONG");
}

static int type_size(MPI_Datatype t) {
    int s;
    MPI_Type_size(t, &s);
    return s;
}

/* t's envelope is F90 `comb` with integers want[0..n). */
static int f90_is(MPI_Datatype t, int comb, const int *want, int n) {
    int ni, na, nd, c, got[2];
    MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
    if (c != comb || ni != n || na != 0 || nd != 0)
        return 0;
    MPI_Type_get_contents(t, 2, 0, 0, got, NULL, NULL);
    return memcmp(got, want, sizeof(int) * (size_t)n) == 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";

    double arr[10];
    MPI_Aint a0, a7;
    MPI_Get_address(&arr[0], &a0);
    MPI_Get_address(&arr[7], &a7);
    report("aint_diff", MPI_Aint_diff(a7, a0) == 7 * (MPI_Aint)sizeof(double));
    report("aint_add", MPI_Aint_add(a0, 7 * (MPI_Aint)sizeof(double)) == a7 &&
                           MPI_Aint_add(a7, -7 * (MPI_Aint)sizeof(double)) == a0);

    MPI_Datatype t;
    int ok = 1;
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &t);
    ok = ok && type_size(t) == 4;
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t);
    ok = ok && type_size(t) == 8;
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 1, &t);
    ok = ok && type_size(t) == 1;
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &t);
    ok = ok && type_size(t) == 2;
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t);
    ok = ok && type_size(t) == 4;
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t);
    ok = ok && type_size(t) == 8;
    MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t);
    ok = ok && type_size(t) == 16;
    {
        int ni, na, nd, c;
        MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
        ok = ok && c == MPI_COMBINER_NAMED; /* a predefined type, not a copy */
    }
    report("match_size", ok);
    {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t);
        report("match_size of no type refused", rc != MPI_SUCCESS);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }

    /* SELECTED_INT_KIND / SELECTED_REAL_KIND: the smallest kind that has
     * the range (and precision) asked. */
    MPI_Datatype i2, i9, i10, r6, r7, rr, c15;
    MPI_Type_create_f90_integer(2, &i2);
    MPI_Type_create_f90_integer(9, &i9);
    MPI_Type_create_f90_integer(10, &i10);
    MPI_Type_create_f90_real(6, MPI_UNDEFINED, &r6);
    MPI_Type_create_f90_real(7, MPI_UNDEFINED, &r7);
    MPI_Type_create_f90_real(MPI_UNDEFINED, 300, &rr);
    MPI_Type_create_f90_complex(15, 300, &c15);
    report("f90 sizes", type_size(i2) == 1 && type_size(i9) == 4 && type_size(i10) == 8 &&
                            type_size(r6) == 4 && type_size(r7) == 8 && type_size(rr) == 8 &&
                            type_size(c15) == 16);
    {
        int w2[] = {2}, w9[] = {9}, wr6[] = {6, MPI_UNDEFINED}, wrr[] = {MPI_UNDEFINED, 300},
            wc[] = {15, 300};
        report("f90 envelopes", f90_is(i2, MPI_COMBINER_F90_INTEGER, w2, 1) &&
                                    f90_is(i9, MPI_COMBINER_F90_INTEGER, w9, 1) &&
                                    f90_is(r6, MPI_COMBINER_F90_REAL, wr6, 2) &&
                                    f90_is(rr, MPI_COMBINER_F90_REAL, wrr, 2) &&
                                    f90_is(c15, MPI_COMBINER_F90_COMPLEX, wc, 2));
    }

    /* An f90 type carries data like the Fortran kind it stands for. */
    {
        double out[3] = {1.5 + rank, -2.25, 1e300}, in[3] = {0, 0, 0};
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        MPI_Sendrecv(out, 3, rr, to, 0, in, 3, rr, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        report("f90 real moves data", in[0] == 1.5 + from && in[1] == -2.25 && in[2] == 1e300);
    }

    if (!strcmp(mode, "free")) {
        MPI_Type_free(&i9); // [FREE]
        MPI_Finalize();
        return 0;
    }

    /* MPI_COMM_DUP_FN copies the attribute value into the new communicator. */
    {
        int key;
        static int payload = 42;
        MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
        MPI_Comm_set_attr(MPI_COMM_WORLD, key, &payload);
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        int *got = NULL, flag = 0;
        MPI_Comm_get_attr(dup, key, &got, &flag);
        void *direct = NULL;
        int dflag = 0;
        MPI_DUP_FN(MPI_COMM_WORLD, key, NULL, &payload, &direct, &dflag);
        report("dup_fn", flag && got == &payload && dflag == 1 && direct == &payload);
        MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
        MPI_Comm_free(&dup);
        MPI_Comm_free_keyval(&key);
    }
    MPI_Finalize();
    return 0;
}
