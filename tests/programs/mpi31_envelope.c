/*
 * mpi31_envelope.c - datatype decoding (MPI 3.1 section 4.1.13): for every
 * constructor, MPI_Type_get_envelope gives the combiner and the counts of
 * the standard's table, and MPI_Type_get_contents gives back the
 * arguments; old types come back as the predefined handle itself, or as a
 * new type equivalent to the derived one (same envelope, size and extent,
 * even after the program freed the original), which the program frees.
 * The MPI 4.0 `_c` forms give the same.  A rank prints "rank R: WHAT ok"
 * per check, or WRONG.
 *
 *   mpi31_envelope        all checks; no finding; output equals real MPICH's
 *   mpi31_envelope leak   a derived type returned by MPI_Type_get_contents
 *                         (marked LEAK) is never freed: the leak check names
 *                         that call
 *   mpi31_envelope named  MPI_Type_get_contents on MPI_INT (marked NAMED):
 *                         an MPI error (named types have no contents)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank;

static void report(const char *what, int ok) {
    printf("rank %d: %s %s\n", rank, what, ok ? "ok" : "WRONG");
}

/* Envelope of t is (ni, na, nd, combiner). */
static int env_is(MPI_Datatype t, int ni, int na, int nd, int comb) {
    int i, a, d, c;
    MPI_Type_get_envelope(t, &i, &a, &d, &c);
    MPI_Count ci, ca, cc, cd;
    int c2;
    MPI_Type_get_envelope_c(t, &ci, &ca, &cc, &cd, &c2);
    return i == ni && a == na && d == nd && c == comb && ci == ni && ca == na && cc == 0 &&
           cd == nd && c2 == comb;
}

static int ints_are(const int *got, const int *want, int n) {
    return memcmp(got, want, sizeof(int) * (size_t)n) == 0;
}

/* Same size, extent and lower bound. */
static int same_layout(MPI_Datatype a, MPI_Datatype b) {
    int sa, sb;
    MPI_Aint la, ea, lb, eb;
    MPI_Type_size(a, &sa);
    MPI_Type_size(b, &sb);
    MPI_Type_get_extent(a, &la, &ea);
    MPI_Type_get_extent(b, &lb, &eb);
    return sa == sb && la == lb && ea == eb;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "";
    int ints[32];
    MPI_Aint aints[16];
    MPI_Datatype types[8];

    if (!strcmp(mode, "named")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Type_get_contents(MPI_INT, 4, 4, 4, ints, aints, types); // [NAMED]
        report("contents of a named type refused", rc != MPI_SUCCESS);
        MPI_Finalize();
        return 0;
    }

    report("named", env_is(MPI_INT, 0, 0, 0, MPI_COMBINER_NAMED) &&
                        env_is(MPI_DOUBLE_INT, 0, 0, 0, MPI_COMBINER_NAMED));

    MPI_Datatype contig, vec, hvec, idx, hidx, iblk, hblk, st, sub, dar, rsz, dup;
    MPI_Type_contiguous(3, MPI_INT, &contig);
    report("contiguous envelope", env_is(contig, 1, 0, 1, MPI_COMBINER_CONTIGUOUS));
    MPI_Type_get_contents(contig, 1, 0, 1, ints, aints, types);
    report("contiguous contents", ints[0] == 3 && types[0] == MPI_INT);

    MPI_Type_vector(4, 2, 5, contig, &vec);
    report("vector envelope", env_is(vec, 3, 0, 1, MPI_COMBINER_VECTOR));
    MPI_Type_get_contents(vec, 3, 0, 1, ints, aints, types);
    {
        int want[] = {4, 2, 5};
        /* contig is derived: an equivalent type comes back, to be freed. */
        report("vector contents", ints_are(ints, want, 3) &&
                                      env_is(types[0], 1, 0, 1, MPI_COMBINER_CONTIGUOUS) &&
                                      same_layout(types[0], contig));
        MPI_Type_free(&types[0]);
    }

    MPI_Type_create_hvector(2, 3, 40, MPI_DOUBLE, &hvec);
    report("hvector envelope", env_is(hvec, 2, 1, 1, MPI_COMBINER_HVECTOR));
    MPI_Type_get_contents(hvec, 2, 1, 1, ints, aints, types);
    report("hvector contents",
           ints[0] == 2 && ints[1] == 3 && aints[0] == 40 && types[0] == MPI_DOUBLE);

    int bl[3] = {1, 2, 3}, dis[3] = {0, 4, 10};
    MPI_Type_indexed(3, bl, dis, MPI_SHORT, &idx);
    report("indexed envelope", env_is(idx, 7, 0, 1, MPI_COMBINER_INDEXED));
    MPI_Type_get_contents(idx, 7, 0, 1, ints, aints, types);
    {
        int want[] = {3, 1, 2, 3, 0, 4, 10};
        report("indexed contents", ints_are(ints, want, 7) && types[0] == MPI_SHORT);
    }

    MPI_Aint adis[3] = {0, 16, 48};
    MPI_Type_create_hindexed(3, bl, adis, MPI_INT, &hidx);
    report("hindexed envelope", env_is(hidx, 4, 3, 1, MPI_COMBINER_HINDEXED));
    MPI_Type_get_contents(hidx, 4, 3, 1, ints, aints, types);
    {
        int want[] = {3, 1, 2, 3};
        report("hindexed contents", ints_are(ints, want, 4) && aints[0] == 0 && aints[1] == 16 &&
                                        aints[2] == 48 && types[0] == MPI_INT);
    }

    MPI_Type_create_indexed_block(3, 2, dis, MPI_FLOAT, &iblk);
    report("indexed_block envelope", env_is(iblk, 5, 0, 1, MPI_COMBINER_INDEXED_BLOCK));
    MPI_Type_get_contents(iblk, 5, 0, 1, ints, aints, types);
    {
        int want[] = {3, 2, 0, 4, 10};
        report("indexed_block contents", ints_are(ints, want, 5) && types[0] == MPI_FLOAT);
    }

    MPI_Type_create_hindexed_block(3, 2, adis, MPI_CHAR, &hblk);
    report("hindexed_block envelope", env_is(hblk, 2, 3, 1, MPI_COMBINER_HINDEXED_BLOCK));
    MPI_Type_get_contents(hblk, 2, 3, 1, ints, aints, types);
    report("hindexed_block contents",
           ints[0] == 3 && ints[1] == 2 && aints[2] == 48 && types[0] == MPI_CHAR);

    int sbl[3] = {1, 2, 1};
    MPI_Aint sdis[3] = {0, 8, 32};
    MPI_Datatype sty[3] = {MPI_INT, MPI_DOUBLE, vec};
    MPI_Type_create_struct(3, sbl, sdis, sty, &st);
    report("struct envelope", env_is(st, 4, 3, 3, MPI_COMBINER_STRUCT));
    MPI_Type_get_contents(st, 4, 3, 3, ints, aints, types);
    {
        int want[] = {3, 1, 2, 1};
        report("struct contents", ints_are(ints, want, 4) && aints[1] == 8 && aints[2] == 32 &&
                                      types[0] == MPI_INT && types[1] == MPI_DOUBLE &&
                                      env_is(types[2], 3, 0, 1, MPI_COMBINER_VECTOR) &&
                                      same_layout(types[2], vec));
        MPI_Type_free(&types[2]);
    }

    int sizes[2] = {6, 8}, subsizes[2] = {2, 3}, starts[2] = {1, 4};
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sub);
    report("subarray envelope", env_is(sub, 8, 0, 1, MPI_COMBINER_SUBARRAY));
    MPI_Type_get_contents(sub, 8, 0, 1, ints, aints, types);
    {
        int want[] = {2, 6, 8, 2, 3, 1, 4, MPI_ORDER_C};
        report("subarray contents", ints_are(ints, want, 8) && types[0] == MPI_INT);
    }

    int gsizes[2] = {8, 6}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
        dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {2, 1};
    MPI_Type_create_darray(2, 1, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN, MPI_DOUBLE,
                           &dar);
    report("darray envelope", env_is(dar, 12, 0, 1, MPI_COMBINER_DARRAY));
    MPI_Type_get_contents(dar, 12, 0, 1, ints, aints, types);
    {
        int want[] = {2,
                      1,
                      2,
                      8,
                      6,
                      MPI_DISTRIBUTE_BLOCK,
                      MPI_DISTRIBUTE_CYCLIC,
                      MPI_DISTRIBUTE_DFLT_DARG,
                      2,
                      2,
                      1,
                      MPI_ORDER_FORTRAN};
        report("darray contents", ints_are(ints, want, 12) && types[0] == MPI_DOUBLE);
    }

    MPI_Type_create_resized(hvec, -8, 100, &rsz);
    report("resized envelope", env_is(rsz, 0, 2, 1, MPI_COMBINER_RESIZED));
    MPI_Type_dup(rsz, &dup);
    report("dup envelope", env_is(dup, 0, 0, 1, MPI_COMBINER_DUP));
    /* Free the originals first: the contents must still describe them. */
    MPI_Type_free(&rsz);
    MPI_Type_free(&hvec);
    MPI_Type_get_contents(dup, 0, 0, 1, ints, aints, types);
    {
        MPI_Datatype r = types[0], h;
        int ok = env_is(r, 0, 2, 1, MPI_COMBINER_RESIZED);
        MPI_Type_get_contents(r, 0, 2, 1, ints, aints, types);
        h = types[0];
        ok = ok && aints[0] == -8 && aints[1] == 100 && env_is(h, 2, 1, 1, MPI_COMBINER_HVECTOR);
        MPI_Type_get_contents(h, 2, 1, 1, ints, aints, types);
        ok = ok && ints[0] == 2 && ints[1] == 3 && aints[0] == 40 && types[0] == MPI_DOUBLE;
        MPI_Aint lb, ext;
        MPI_Type_get_extent(r, &lb, &ext);
        ok = ok && lb == -8 && ext == 100;
        report("contents after the originals were freed", ok);
        MPI_Type_free(&h);
        if (!strcmp(mode, "leak")) {
            MPI_Type_free(&dup);
            MPI_Type_get_contents(st, 4, 3, 3, ints, aints, types); // [LEAK]
            MPI_Type_free(&r);
            MPI_Type_free(&contig);
            MPI_Type_free(&vec);
            MPI_Type_free(&idx);
            MPI_Type_free(&hidx);
            MPI_Type_free(&iblk);
            MPI_Type_free(&hblk);
            MPI_Type_free(&st);
            MPI_Type_free(&sub);
            MPI_Type_free(&dar);
            MPI_Finalize();
            return 0;
        }
        MPI_Type_free(&r);
    }

    /* A returned type may be committed and used like the original. */
    {
        MPI_Type_commit(&vec);
        MPI_Datatype twin;
        MPI_Type_dup(vec, &twin);
        MPI_Type_get_contents(twin, 0, 0, 1, ints, aints, types);
        MPI_Datatype back = types[0];
        MPI_Type_commit(&back);
        int src[60], a[60], b[60];
        for (int i = 0; i < 60; i++)
            src[i] = i + 100 * rank, a[i] = b[i] = -1;
        MPI_Sendrecv(src, 1, vec, rank, 1, a, 1, vec, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(src, 1, back, rank, 2, b, 1, back, rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        report("returned type moves the same data", memcmp(a, b, sizeof a) == 0 && a[0] == src[0]);
        MPI_Type_free(&back);
        MPI_Type_free(&twin);
    }

    /* The `_c` contents give the same arguments. */
    {
        MPI_Count dummy[1];
        MPI_Type_get_contents_c(idx, 7, 0, 0, 1, ints, aints, dummy, types);
        int want[] = {3, 1, 2, 3, 0, 4, 10};
        report("indexed contents_c", ints_are(ints, want, 7) && types[0] == MPI_SHORT);
    }

    MPI_Type_free(&dup);
    MPI_Type_free(&contig);
    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    MPI_Type_free(&hidx);
    MPI_Type_free(&iblk);
    MPI_Type_free(&hblk);
    MPI_Type_free(&st);
    MPI_Type_free(&sub);
    MPI_Type_free(&dar);
    MPI_Finalize();
    return 0;
}
