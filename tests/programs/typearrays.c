/*
 * typearrays.c - subarray and distributed-array datatypes, portable packing
 * (external32), the status setters and MPI 4.0's data constants, checked
 * against what the standard says.
 *
 * Run with 4 ranks; every rank prints its own lines, the output is MPICH's
 * (tests/e2e/expected/typearrays.n4.out).  ordex must report nothing:
 *   - a 2x3 subarray at (1,1) of a 4x5 int array, in C and Fortran order:
 *     the elements it selects (MPI_Pack of one), its extent and size;
 *   - each rank's share of a 7x5 array distributed (BLOCK, CYCLIC(2)) over
 *     a 2x2 grid, and of a 6-element array distributed CYCLIC over 4: the
 *     elements, extent and size;
 *   - the same subarray exchanged by rank 0 and 1 with point-to-point;
 *   - external32: sizes (MPI_LONG in 4 bytes, MPI_DOUBLE in 8, ...), the
 *     big-endian bytes of ints, shorts, longs and doubles, a round trip of
 *     a vector, and the position advanced (MPICH 4.0.2 crashes on structs
 *     in external32: tests/datatype checks them, and long doubles);
 *   - MPI_Status_set_elements and MPI_Status_set_cancelled as
 *     MPI_Get_elements, MPI_Get_count and MPI_Test_cancelled read them
 *     (basic types only: for a derived type MPICH takes count as a count of
 *     the type, where MPI 3.1 section 12.3 says MPI_Get_elements returns
 *     count; tests/datatype checks that case);
 *   - MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY resolve to distinct non-null
 *     addresses.
 */
#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int rank;

/* Prints one whole line at once: under mpiexec the ranks' outputs merge
 * in chunks, and a line written in pieces may be cut by another's. */
static void line(const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("rank %d: %s\n", rank, buf);
    fflush(stdout);
}

/* Prints the ints that one element of t selects from base. */
static void show(const char *what, const int *base, MPI_Datatype t) {
    int size, n;
    MPI_Aint lb, extent;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &extent);
    int out[64], pos = 0;
    MPI_Pack(base, 1, t, out, sizeof out, &pos, MPI_COMM_SELF);
    n = pos / (int)sizeof(int);
    char list[256] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), " %d", out[i]);
    line("%s lb %ld extent %ld size %d:%s", what, (long)lb, (long)extent, size, list);
}

static void hex(const char *what, const unsigned char *p, MPI_Aint n) {
    char list[256] = "";
    for (MPI_Aint i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), " %02x", p[i]);
    line("%s (%ld bytes):%s", what, (long)n, list);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int a[35];
    for (int i = 0; i < 35; i++)
        a[i] = i;

    int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 1};
    MPI_Datatype sc, sf;
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &sc);
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_INT, &sf);
    MPI_Type_commit(&sc);
    MPI_Type_commit(&sf);
    if (rank == 0) {
        show("subarray C", a, sc);
        show("subarray Fortran", a, sf);
    }

    int g[2] = {7, 5}, d[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int da[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, p[2] = {2, 2};
    MPI_Datatype dt, dc;
    MPI_Type_create_darray(4, rank, 2, g, d, da, p, MPI_ORDER_C, MPI_INT, &dt);
    MPI_Type_commit(&dt);
    show("darray block-cyclic", a, dt);
    int g1 = 6, d1 = MPI_DISTRIBUTE_CYCLIC, da1 = MPI_DISTRIBUTE_DFLT_DARG, p1 = 4;
    MPI_Type_create_darray(4, rank, 1, &g1, &d1, &da1, &p1, MPI_ORDER_FORTRAN, MPI_INT, &dc);
    MPI_Type_commit(&dc);
    show("darray cyclic", a, dc);

    /* The subarray as a message: rank 0 sends its block, rank 1 receives
     * it into the same place of a zeroed array. */
    if (rank == 0) {
        MPI_Send(a, 1, sc, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int b[20] = {0};
        MPI_Recv(b, 1, sc, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        char list[128] = "";
        for (int i = 0; i < 20; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), " %d", b[i]);
        line("received subarray:%s", list);
    }

    if (rank == 2) {
        MPI_Datatype types[] = {
            MPI_CHAR,   MPI_SHORT,       MPI_INT,    MPI_LONG, MPI_LONG_LONG,       MPI_FLOAT,
            MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_AINT, MPI_C_DOUBLE_COMPLEX};
        const char *names[] = {"char",   "short",       "int",  "long", "long long",     "float",
                               "double", "long double", "bool", "aint", "double complex"};
        for (int i = 0; i < 11; i++) {
            MPI_Aint n;
            MPI_Pack_external_size("external32", 3, types[i], &n);
            line("external32 size of 3 %s: %ld", names[i], (long)n);
        }
        unsigned char buf[128];
        int ints[2] = {0x01020304, -2};
        short shorts[2] = {0x0102, -3};
        long longs[2] = {0x7fffffffL, -5};
        double doubles[2] = {1.0, -2.5};
        MPI_Aint pos = 0;
        MPI_Pack_external("external32", ints, 2, MPI_INT, buf, sizeof buf, &pos);
        hex("ints", buf, pos);
        pos = 0;
        MPI_Pack_external("external32", shorts, 2, MPI_SHORT, buf, sizeof buf, &pos);
        hex("shorts", buf, pos);
        pos = 0;
        MPI_Pack_external("external32", longs, 2, MPI_LONG, buf, sizeof buf, &pos);
        hex("longs", buf, pos);
        long back[2];
        MPI_Aint upos = 0;
        MPI_Unpack_external("external32", buf, pos, &upos, back, 2, MPI_LONG);
        line("longs back %ld %ld position %ld", back[0], back[1], (long)upos);
        pos = 0;
        MPI_Pack_external("external32", doubles, 2, MPI_DOUBLE, buf, sizeof buf, &pos);
        hex("doubles", buf, pos);

        /* Every other double of four, through a vector type. */
        double in[4] = {1.5, 99, -0.1, 98}, out[4] = {0, 0, 0, 0};
        MPI_Datatype rt;
        MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &rt);
        MPI_Type_commit(&rt);
        MPI_Aint need;
        MPI_Pack_external_size("external32", 1, rt, &need);
        pos = 0;
        MPI_Pack_external("external32", in, 1, rt, buf, sizeof buf, &pos);
        upos = 0;
        MPI_Unpack_external("external32", buf, pos, &upos, out, 1, rt);
        line("vector external32 size %ld packed %ld unpacked %ld, back %g %g %g %g", (long)need,
             (long)pos, (long)upos, out[0], out[1], out[2], out[3]);
        MPI_Type_free(&rt);
    }

    if (rank == 3) {
        MPI_Status st;
        memset(&st, 0, sizeof st);
        int n;
        MPI_Count nx;
        MPI_Status_set_elements(&st, MPI_INT, 6);
        int e, c, cd;
        MPI_Get_elements(&st, MPI_INT, &e);
        MPI_Get_count(&st, MPI_INT, &c);
        MPI_Get_count(&st, MPI_DOUBLE, &cd);
        line("set 6 ints: elements %d count %d as doubles %d", e, c, cd);
        MPI_Status_set_elements_x(&st, MPI_CHAR, 12);
        MPI_Get_elements_x(&st, MPI_CHAR, &nx);
        MPI_Get_count(&st, MPI_INT, &n);
        line("set 12 chars: elements %lld, as ints %d", (long long)nx, n);
        int flag, flag0;
        MPI_Status_set_cancelled(&st, 1);
        MPI_Test_cancelled(&st, &flag);
        MPI_Get_elements_x(&st, MPI_CHAR, &nx);
        MPI_Status_set_cancelled(&st, 0);
        MPI_Test_cancelled(&st, &flag0);
        line("cancelled %d elements still %lld then %d", flag, (long long)nx, flag0);
        line("MPI_UNWEIGHTED non-null %d, MPI_WEIGHTS_EMPTY non-null %d, distinct %d",
             MPI_UNWEIGHTED != NULL, MPI_WEIGHTS_EMPTY != NULL,
             (void *)MPI_UNWEIGHTED != (void *)MPI_WEIGHTS_EMPTY);
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(version, &len);
        line("library version given %d", len > 0 && (int)strlen(version) == len);
    }
    MPI_Type_free(&sc);
    MPI_Type_free(&sf);
    MPI_Type_free(&dt);
    MPI_Type_free(&dc);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
