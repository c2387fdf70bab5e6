/*
 * mpi31_datarep.c - user data representations (MPI 3.1 section 13.5.3) and
 * "external32" in file views.  Each rank writes its own file (argv[1] with
 * the rank appended; default mpi31_datarep.dat).
 *
 * "bigend" stores ints big-endian: its write conversion swaps the bytes of
 * each element from the user's buffer (at position elements in) into the
 * file buffer, its read conversion swaps them back.  40000 ints go through
 * it: the file's first bytes, read back through a "native" view, are
 * 00 00 00 01 00 00 00 02, and the ints read back through "bigend" are the
 * ones written.  The conversion calls must cover the 40000 elements in
 * order (each call's position is where the one before stopped); with
 * argument "calls" the program also prints the calls' positions, which
 * depend on the implementation's buffer size.
 *
 * Registering "bigend" again, or "native", is MPI_ERR_DUP_DATAREP.
 * "nullconv" has MPI_CONVERSION_FN_NULL for both and native extents: the
 * data is stored natively.  "wide" has MPI_CONVERSION_FN_NULL but gives an
 * int 8 bytes in the file: a write is MPI_ERR_CONVERSION.  Under
 * "external32" an int is stored big-endian too, and a long takes 4 bytes.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 40000

static int calls, covered, in_order = 1;
static long long positions[16];

static void swap4(unsigned char *to, const unsigned char *from) {
    to[0] = from[3], to[1] = from[2], to[2] = from[1], to[3] = from[0];
}

/* Every datatype used with "bigend" here is ints back to back (MPI_INT or a
 * contiguous pair of them): data item k of the tiled type map is int k of
 * the buffer. */
static int write_big(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                     MPI_Offset position, void *extra_state) {
    (void)extra_state, (void)datatype;
    if (position != covered)
        in_order = 0;
    if (calls < 16)
        positions[calls] = (long long)position;
    calls++;
    covered += count;
    const unsigned char *u = (const unsigned char *)userbuf + 4 * position;
    for (int i = 0; i < count; i++)
        swap4((unsigned char *)filebuf + 4 * i, u + 4 * i);
    return MPI_SUCCESS;
}

static int read_big(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                    MPI_Offset position, void *extra_state) {
    (void)extra_state, (void)datatype;
    unsigned char *u = (unsigned char *)userbuf + 4 * position;
    for (int i = 0; i < count; i++)
        swap4(u + 4 * i, (const unsigned char *)filebuf + 4 * i);
    return MPI_SUCCESS;
}

static int native_extent(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state) {
    (void)extra_state;
    MPI_Aint lb;
    return MPI_Type_get_extent(datatype, &lb, file_extent);
}

static int wide_extent(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state) {
    (void)datatype, (void)extra_state;
    *file_extent = 8;
    return MPI_SUCCESS;
}

static int error_class(int rc) {
    int cls = rc;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* The file's first 8 bytes through a "native" view. */
static void show_bytes(MPI_File fh, int rank, const char *what) {
    unsigned char b[8] = {0};
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_File_read_at(fh, 0, b, 8, MPI_BYTE, MPI_STATUS_IGNORE);
    printf("rank %d %s: %02x %02x %02x %02x %02x %02x %02x %02x\n", rank, what, b[0], b[1], b[2],
           b[3], b[4], b[5], b[6], b[7]);
}

int main(int argc, char **argv) {
    const char *base = argc > 1 ? argv[1] : "mpi31_datarep.dat";
    int show_calls = argc > 2 && strcmp(argv[2], "calls") == 0;
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", base, rank);

    MPI_Register_datarep("bigend", read_big, write_big, native_extent, NULL);
    int rc = MPI_Register_datarep("bigend", read_big, write_big, native_extent, NULL);
    printf("rank %d bigend again: %s\n", rank,
           error_class(rc) == MPI_ERR_DUP_DATAREP ? "MPI_ERR_DUP_DATAREP" : "other");
    rc = MPI_Register_datarep("native", read_big, write_big, native_extent, NULL);
    printf("rank %d native again: %s\n", rank,
           error_class(rc) == MPI_ERR_DUP_DATAREP ? "MPI_ERR_DUP_DATAREP" : "other");
    MPI_Register_datarep("nullconv", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, native_extent,
                         NULL);
    MPI_Register_datarep("wide", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, wide_extent, NULL);

    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    int *v = malloc(sizeof(int) * N), *back = malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++)
        v[i] = i + 1 + rank * 1000000;

    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "bigend", MPI_INFO_NULL);
    MPI_Status st;
    int got = -1;
    MPI_File_write_at(fh, 0, v, N, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &got);
    printf("rank %d bigend wrote %d ints; conversions covered %d elements%s\n", rank, got, covered,
           in_order ? " in order" : " OUT OF ORDER");
    if (show_calls) {
        printf("rank %d write conversion calls: %d at", rank, calls);
        for (int i = 0; i < calls && i < 16; i++)
            printf(" %lld", positions[i]);
        printf("\n");
    }
    /* Count and position count data items (ints), not pairs (MPI 3.1
     * 13.5.3): N / 2 pairs are N data items. */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    calls = covered = 0;
    in_order = 1;
    MPI_File_write_at(fh, 0, v, N / 2, pair, &st);
    MPI_Get_count(&st, pair, &got);
    printf("rank %d bigend wrote %d pairs; conversions covered %d data items%s\n", rank, got,
           covered, in_order ? " in order" : " OUT OF ORDER");
    if (show_calls) {
        printf("rank %d pair conversion calls: %d at", rank, calls);
        for (int i = 0; i < calls && i < 16; i++)
            printf(" %lld", positions[i]);
        printf("\n");
    }
    MPI_Type_free(&pair);
    memset(back, 0, sizeof(int) * N);
    MPI_File_read_at(fh, 0, back, N, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &got);
    printf("rank %d bigend read back %d ints: %s\n", rank, got,
           memcmp(v, back, sizeof(int) * N) == 0 ? "all equal" : "DIFFERENT");
    show_bytes(fh, rank, "bigend bytes");

    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "nullconv", MPI_INFO_NULL);
    int two[2] = {1, 2};
    MPI_File_write_at(fh, 0, two, 2, MPI_INT, MPI_STATUS_IGNORE);
    show_bytes(fh, rank, "nullconv bytes");

    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "wide", MPI_INFO_NULL);
    rc = MPI_File_write_at(fh, 0, two, 2, MPI_INT, MPI_STATUS_IGNORE);
    printf("rank %d wide with MPI_CONVERSION_FN_NULL: %s\n", rank,
           rc == MPI_SUCCESS                       ? "written"
           : error_class(rc) == MPI_ERR_CONVERSION ? "MPI_ERR_CONVERSION"
                                                   : "another error");

    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL);
    if (rc == MPI_SUCCESS) {
        int three[2] = {3, -2};
        MPI_File_write_at(fh, 0, three, 2, MPI_INT, MPI_STATUS_IGNORE);
        int r2[2] = {0, 0};
        MPI_File_read_at(fh, 0, r2, 2, MPI_INT, MPI_STATUS_IGNORE);
        printf("rank %d external32 read back %d %d\n", rank, r2[0], r2[1]);
        show_bytes(fh, rank, "external32 bytes");
        /* MPI 3.1 table 13.2: a long takes 4 bytes in external32 */
        MPI_File_set_size(fh, 0);
        MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL);
        long l[2] = {7, -7};
        MPI_Aint ext = 0;
        MPI_Offset size = 0;
        MPI_File_write_at(fh, 0, l, 2, MPI_LONG, MPI_STATUS_IGNORE);
        MPI_File_get_type_extent(fh, MPI_LONG, &ext);
        MPI_File_get_size(fh, &size);
        printf("rank %d external32 long: extent %ld, 2 longs take %lld bytes\n", rank, (long)ext,
               (long long)size);
    } else {
        printf("rank %d external32: refused\n", rank);
    }

    MPI_File_close(&fh);
    free(v);
    free(back);
    MPI_Finalize();
    return 0;
}
