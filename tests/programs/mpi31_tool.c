/*
 * mpi31_tool.c - the MPI tool information interface (MPI 3.1 chapter 14):
 * the error returns the standard prescribes (MPI_T_ERR_NOT_INITIALIZED
 * before MPI_T_init_thread and after the last MPI_T_finalize,
 * MPI_T_ERR_INVALID_INDEX, _NAME, _SESSION, _HANDLE), nested
 * initialisation, the string protocol of the *_get_info calls, and that
 * every variable and category found by index is found again by its name.
 * A rank prints "rank R: WHAT ok" per check, or WRONG.
 *
 *   mpi31_tool          the checks any implementation passes; no finding;
 *                       output equals real MPICH's
 *   mpi31_tool strict   also MPI_T_pvar_get_info out of range and MPI_T
 *                       after MPI_Finalize (which MPICH 4.0.2 does not
 *                       survive), and ordex's
 *                       performance variable
 *                       "ordex_messages_delivered": a counter of the
 *                       messages delivered into the rank's receives while
 *                       its handle is started (start, stop, read, reset,
 *                       readreset, write, MPI_T_PVAR_ALL_HANDLES)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void report(const char *what, int ok) {
    printf("rank %d: %s %s\n", rank, what, ok ? "ok" : "WRONG");
}

/* k messages into this rank's receives (a ring exchange). */
static void exchange(int k) {
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    for (int i = 0; i < k; i++) {
        int out = i, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, to, 0, &in, 1, MPI_INT, from, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
}

static void counter(void) {
    int idx = -1, count = 0;
    report("counter found", MPI_T_pvar_get_index("ordex_messages_delivered",
                                                 MPI_T_PVAR_CLASS_COUNTER, &idx) == MPI_SUCCESS);
    int verbosity, var_class, bind, readonly, continuous, atomic;
    MPI_Datatype dt;
    MPI_T_enum et;
    MPI_T_pvar_get_info(idx, NULL, NULL, &verbosity, &var_class, &dt, &et, NULL, NULL, &bind,
                        &readonly, &continuous, &atomic);
    report("counter info", var_class == MPI_T_PVAR_CLASS_COUNTER && dt == MPI_UNSIGNED_LONG_LONG &&
                               bind == MPI_T_BIND_NO_OBJECT && !readonly && !continuous);
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h, h2;
    MPI_T_pvar_session_create(&s);
    MPI_T_pvar_handle_alloc(s, idx, NULL, &h, &count);
    MPI_T_pvar_handle_alloc(s, idx, NULL, &h2, &count);
    unsigned long long v = 99, v2 = 99;
    exchange(2);
    MPI_T_pvar_read(s, h, &v);
    report("stopped at allocation", v == 0 && count == 1);
    MPI_T_pvar_start(s, h);
    exchange(3);
    MPI_T_pvar_read(s, h, &v);
    report("counts delivered messages", v == 3);
    MPI_T_pvar_stop(s, h);
    exchange(2);
    MPI_T_pvar_read(s, h, &v);
    report("stop holds the value", v == 3);
    MPI_T_pvar_readreset(s, h, &v);
    MPI_T_pvar_read(s, h, &v2);
    report("readreset", v == 3 && v2 == 0);
    unsigned long long ten = 10;
    MPI_T_pvar_write(s, h, &ten);
    MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES);
    exchange(4);
    MPI_T_pvar_read(s, h, &v);
    MPI_T_pvar_read(s, h2, &v2);
    report("write, then all handles started", v == 14 && v2 == 4);
    MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES);
    exchange(1);
    MPI_T_pvar_read(s, h, &v);
    MPI_T_pvar_read(s, h2, &v2);
    report("reset all handles", v == 1 && v2 == 1);
    report("read of all handles refused",
           MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v) == MPI_T_ERR_INVALID_HANDLE);
    MPI_T_pvar_session other;
    MPI_T_pvar_session_create(&other);
    report("handle of another session refused",
           MPI_T_pvar_read(other, h, &v) == MPI_T_ERR_INVALID_HANDLE);
    MPI_T_pvar_session_free(&other);
    MPI_T_pvar_handle_free(s, &h);
    report("handle freed", h == MPI_T_PVAR_HANDLE_NULL);
    MPI_T_pvar_session_free(&s);
}

int main(int argc, char **argv) {
    int provided = -1;
    /* Before MPI_Init as well as after: MPI_T has its own life cycle. */
    int num = -1;
    int before = MPI_T_pvar_get_num(&num);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    report("not initialized", before == MPI_T_ERR_NOT_INITIALIZED &&
                                  MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED &&
                                  MPI_T_cvar_get_num(&num) == MPI_T_ERR_NOT_INITIALIZED &&
                                  MPI_T_category_get_num(&num) == MPI_T_ERR_NOT_INITIALIZED);
    report("init_thread", MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS &&
                              provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
    /* Nested: a second init needs a second finalize. */
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_finalize();

    int ncvar = -1, npvar = -1, ncat = -1;
    MPI_T_cvar_get_num(&ncvar);
    MPI_T_pvar_get_num(&npvar);
    MPI_T_category_get_num(&ncat);
    report("counts", ncvar >= 0 && npvar >= 0 && ncat >= 0);

    char name[256], desc[1024];
    int nlen, dlen, ok = 1;
    for (int i = 0; i < npvar; i++) {
        int verbosity, var_class, bind, readonly, continuous, atomic, idx = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        nlen = sizeof name;
        dlen = sizeof desc;
        int rc = MPI_T_pvar_get_info(i, name, &nlen, &verbosity, &var_class, &dt, &et, desc, &dlen,
                                     &bind, &readonly, &continuous, &atomic);
        if (rc == MPI_T_ERR_INVALID_INDEX)
            continue; /* variables may come and go */
        ok = ok && rc == MPI_SUCCESS && nlen == (int)strlen(name) + 1;
        ok = ok && MPI_T_pvar_get_index(name, var_class, &idx) == MPI_SUCCESS && idx == i;
    }
    report("pvars by name", ok);
    ok = 1;
    for (int i = 0; i < ncvar; i++) {
        int verbosity, bind, scope, idx = -1;
        MPI_Datatype dt;
        MPI_T_enum et;
        nlen = sizeof name;
        dlen = sizeof desc;
        int rc =
            MPI_T_cvar_get_info(i, name, &nlen, &verbosity, &dt, &et, desc, &dlen, &bind, &scope);
        if (rc == MPI_T_ERR_INVALID_INDEX)
            continue;
        ok = ok && rc == MPI_SUCCESS && MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS && idx == i;
    }
    report("cvars by name", ok);
    ok = 1;
    for (int i = 0; i < ncat; i++) {
        int nc, np, nk, idx = -1;
        nlen = sizeof name;
        dlen = sizeof desc;
        ok = ok &&
             MPI_T_category_get_info(i, name, &nlen, desc, &dlen, &nc, &np, &nk) == MPI_SUCCESS &&
             MPI_T_category_get_index(name, &idx) == MPI_SUCCESS && idx == i;
        /* The length needed comes back when no buffer is given. */
        int need = 0;
        ok = ok &&
             MPI_T_category_get_info(i, NULL, &need, NULL, NULL, NULL, NULL, NULL) == MPI_SUCCESS &&
             need == (int)strlen(name) + 1;
    }
    report("categories by name", ok);

    {
        int v, nc, np, nk, idx;
        MPI_Datatype dt;
        MPI_T_enum et;
        int b, r, c, a, s;
        /* Full buffers: an implementation may look at them before the index. */
        ok = 1;
        if (!strcmp(mode, "strict")) {
            /* MPICH 4.0.2 crashes on these instead of returning the error. */
            nlen = sizeof name, dlen = sizeof desc;
            ok = MPI_T_pvar_get_info(npvar, name, &nlen, &v, &v, &dt, &et, desc, &dlen, &b, &r, &c,
                                     &a) == MPI_T_ERR_INVALID_INDEX;
            nlen = sizeof name, dlen = sizeof desc;
            ok = ok && MPI_T_pvar_get_info(-1, name, &nlen, &v, &v, &dt, &et, desc, &dlen, &b, &r,
                                           &c, &a) == MPI_T_ERR_INVALID_INDEX;
        }
        nlen = sizeof name, dlen = sizeof desc;
        ok = ok && MPI_T_cvar_get_info(ncvar, name, &nlen, &v, &dt, &et, desc, &dlen, &b, &s) ==
                       MPI_T_ERR_INVALID_INDEX;
        nlen = sizeof name, dlen = sizeof desc;
        ok = ok &&
             MPI_T_category_get_info(ncat, name, &nlen, desc, &dlen, &nc, &np, &nk) ==
                 MPI_T_ERR_INVALID_INDEX &&
             MPI_T_pvar_get_index("no such variable", MPI_T_PVAR_CLASS_COUNTER, &idx) ==
                 MPI_T_ERR_INVALID_NAME &&
             MPI_T_cvar_get_index("no such variable", &idx) == MPI_T_ERR_INVALID_NAME &&
             MPI_T_category_get_index("no such category", &idx) == MPI_T_ERR_INVALID_NAME;
        report("invalid index and name", ok);
    }

    {
        MPI_T_pvar_session s = MPI_T_PVAR_SESSION_NULL;
        MPI_T_pvar_handle h;
        int count;
        ok = MPI_T_pvar_session_create(&s) == MPI_SUCCESS && s != MPI_T_PVAR_SESSION_NULL;
        if (!strcmp(mode, "strict")) /* the same MPICH 4.0.2 crash */
            ok = ok &&
                 MPI_T_pvar_handle_alloc(s, npvar, NULL, &h, &count) == MPI_T_ERR_INVALID_INDEX;
        ok = ok && MPI_T_pvar_session_free(&s) == MPI_SUCCESS && s == MPI_T_PVAR_SESSION_NULL;
        report("sessions", ok);
    }

    if (!strcmp(mode, "strict"))
        counter();

    report("finalize", MPI_T_finalize() == MPI_SUCCESS &&
                           MPI_T_pvar_get_num(&num) == MPI_T_ERR_NOT_INITIALIZED);
    MPI_Finalize();
    if (!strcmp(mode, "strict")) {
        /* MPI_T outlives MPI (MPI 3.1 section 14.2.1); MPICH 4.0.2 does not
         * survive this either. */
        ok = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS &&
             MPI_T_pvar_get_num(&num) == MPI_SUCCESS && num == npvar &&
             MPI_T_finalize() == MPI_SUCCESS;
        report("after MPI_Finalize", ok);
    }
    return 0;
}
