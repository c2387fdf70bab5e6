/*
 * attrs.c - attribute caching (MPI 3.1 section 6.7) on communicators,
 * datatypes and windows, checked against what the standard says.
 *
 * Every rank prints its own lines, prefixed with its rank; the output is
 * MPICH's (tests/e2e/expected/attrs.n3.out).  ordex must report nothing.
 *   - the predefined attributes: MPI_TAG_UB at least 32767, MPI_HOST
 *     MPI_PROC_NULL, MPI_IO MPI_ANY_SOURCE, MPI_WTIME_IS_GLOBAL 0,
 *     MPI_APPNUM 0, MPI_LASTUSEDCODE MPI_ERR_LASTCODE;
 *   - copy callbacks on MPI_Comm_dup: the user's function decides (it
 *     copies value + 100 and refuses value 2), MPI_COMM_DUP_FN copies,
 *     MPI_COMM_NULL_COPY_FN does not;
 *   - delete callbacks: on a new value, on MPI_Comm_delete_attr, on
 *     MPI_Comm_free (the last set first), after MPI_Comm_free_keyval (the
 *     keyval lives while attributes use it), and at MPI_Finalize on
 *     MPI_COMM_SELF;
 *   - the MPI-1 names (MPI_Keyval_create, MPI_Attr_put/get/delete);
 *   - datatypes: MPI_Type_dup copies, MPI_Type_free deletes;
 *   - windows: set, get, delete, MPI_Win_free deletes, and the predefined
 *     MPI_WIN_SIZE next to a user attribute.
 */
#include <mpi.h>
#include <stdio.h>

static int rank;

static int copy_plus100(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
    long v = (long)in;
    printf("rank %d: copy %s value %ld\n", rank, (const char *)extra, v);
    *(void **)out = (void *)(v + 100);
    *flag = v != 2;
    return MPI_SUCCESS;
}

static int delete_print(MPI_Comm comm, int keyval, void *value, void *extra) {
    /* The attribute is still there while its delete callback runs. */
    void *v;
    int flag = 0;
    MPI_Comm_get_attr(comm, keyval, &v, &flag);
    printf("rank %d: delete %s value %ld (still set %d)\n", rank, (const char *)extra, (long)value,
           flag);
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int keyval, void *value, void *extra) {
    printf("rank %d: type delete %s value %ld\n", rank, (const char *)extra, (long)value);
    return MPI_SUCCESS;
}

static int win_delete(MPI_Win w, int keyval, void *value, void *extra) {
    printf("rank %d: win delete %s value %ld\n", rank, (const char *)extra, (long)value);
    return MPI_SUCCESS;
}

static long get(MPI_Comm comm, int keyval) {
    void *v;
    int flag;
    MPI_Comm_get_attr(comm, keyval, &v, &flag);
    return flag ? (long)v : -1;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* For the window: MPICH's MPI_Win_create duplicates its communicator
     * with the attributes (calling their callbacks), which MPI does not
     * ask for; one without attributes keeps the outputs comparable. */
    MPI_Comm plain;
    MPI_Comm_dup(MPI_COMM_WORLD, &plain);

    int *p, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag);
    printf("rank %d: tag_ub flag %d at least 32767: %d\n", rank, flag, *p >= 32767);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &p, &flag);
    printf("rank %d: host flag %d proc_null %d\n", rank, flag, *p == MPI_PROC_NULL);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &p, &flag);
    printf("rank %d: io flag %d any_source %d\n", rank, flag, *p == MPI_ANY_SOURCE);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &p, &flag);
    printf("rank %d: wtime_is_global flag %d value %d\n", rank, flag, *p);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &p, &flag);
    printf("rank %d: appnum flag %d value %d\n", rank, flag, *p);
    MPI_Attr_get(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &p, &flag);
    printf("rank %d: lastusedcode flag %d is MPI_ERR_LASTCODE %d\n", rank, flag,
           *p == MPI_ERR_LASTCODE);

    /* Three keyvals on MPI_COMM_WORLD, set in the order b, a, c. */
    int ka, kb, kc, kd;
    MPI_Comm_create_keyval(copy_plus100, delete_print, &ka, "a");
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_print, &kb, "b");
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_print, &kc, "c");
    MPI_Keyval_create(copy_plus100, delete_print, &kd, "d");
    printf("rank %d: keyvals distinct %d\n", rank, ka != kb && kb != kc && kc != kd && ka != kd);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kb, (void *)20);
    MPI_Comm_set_attr(MPI_COMM_WORLD, ka, (void *)1);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kc, (void *)30);
    MPI_Comm_set_attr(MPI_COMM_WORLD, ka, (void *)10); /* deletes 1 */
    MPI_Attr_put(MPI_COMM_WORLD, kd, (void *)2);       /* its copy refuses 2 */
    printf("rank %d: world a %ld b %ld c %ld d %ld\n", rank, get(MPI_COMM_WORLD, ka),
           get(MPI_COMM_WORLD, kb), get(MPI_COMM_WORLD, kc), get(MPI_COMM_WORLD, kd));

    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    printf("rank %d: dup a %ld b %ld c %ld d %ld\n", rank, get(dup, ka), get(dup, kb), get(dup, kc),
           get(dup, kd));
    MPI_Comm_delete_attr(MPI_COMM_WORLD, kc);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, kc); /* not set any more: nothing */
    MPI_Attr_delete(MPI_COMM_WORLD, kd);
    printf("rank %d: world c after delete %ld\n", rank, get(MPI_COMM_WORLD, kc));

    /* Freeing a keyval keeps the attributes that use it. */
    MPI_Comm_free_keyval(&ka);
    printf("rank %d: keyval after free is MPI_KEYVAL_INVALID %d\n", rank, ka == MPI_KEYVAL_INVALID);
    MPI_Comm_set_attr(dup, kc, (void *)33);
    MPI_Comm_free(&dup); /* deletes c 33, b 20, a 110: the last set first */

    /* Datatypes. */
    int kt;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &kt, "t");
    MPI_Datatype vec, vec2;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_set_attr(vec, kt, (void *)(long)(40 + rank));
    MPI_Type_dup(vec, &vec2);
    void *tv;
    MPI_Type_get_attr(vec2, kt, &tv, &flag);
    printf("rank %d: type dup has flag %d value %ld\n", rank, flag, (long)tv);
    MPI_Type_free(&vec);
    MPI_Type_delete_attr(vec2, kt);
    MPI_Type_get_attr(vec2, kt, &tv, &flag);
    printf("rank %d: type after delete flag %d\n", rank, flag);
    MPI_Type_free(&vec2);
    MPI_Type_free_keyval(&kt);

    /* Windows: user attributes next to the predefined ones. */
    int buf[4], kw;
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, plain, &win);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &kw, "w");
    MPI_Win_set_attr(win, kw, (void *)50);
    MPI_Win_set_attr(win, kw, (void *)51);
    void *wv;
    MPI_Aint *size;
    MPI_Win_get_attr(win, kw, &wv, &flag);
    printf("rank %d: win attr flag %d value %ld\n", rank, flag, (long)wv);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &size, &flag);
    printf("rank %d: win size flag %d value %ld\n", rank, flag, (long)*size);
    MPI_Win_free(&win);
    MPI_Win_free_keyval(&kw);
    MPI_Comm_free(&plain);

    /* Deleted at MPI_Finalize, MPI_COMM_SELF's first. */
    int ks;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_print, &ks, "self");
    MPI_Comm_set_attr(MPI_COMM_SELF, ks, (void *)60);
    MPI_Comm_set_attr(MPI_COMM_SELF, kb, (void *)61);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
