/*
 * grequest.c - generalized requests (MPI 3.1 section 12.2) and the status
 * and op helpers that go with them: each callback logs its call, so the
 * output shows when MPI calls them.  Run with 2 ranks; the output is
 * MPICH's (tests/e2e/expected/grequest.n2.out).  Without an argument ordex
 * must report nothing.
 *
 * freepending: MPI_Request_free before MPI_Grequest_complete, whose free
 * callback runs at the completion ("[freed free]"); MPICH runs it earlier.
 *
 * With another argument, a misuse (exit status 1):
 *   never     MPI_Wait on a generalized request that nothing completes: a
 *             [deadlock] at [NEVER] naming MPI_Grequest_start
 *   twice     MPI_Grequest_complete twice: [mpi_error] at [TWICE]
 *   queryerr  the query callback returns MPI_ERR_OTHER: [mpi_error] at
 *             [QUERYERR]
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

typedef struct state {
    char log[256];
    int elements;
    int cancelled; /* what cancel_fn was told, -1 if never called */
    int fail;      /* query_fn returns an error */
} state;

static void note(state *s, const char *what) {
    size_t n = strlen(s->log);
    snprintf(s->log + n, sizeof s->log - n, "%s%s", n ? " " : "", what);
}

static int query_fn(void *extra, MPI_Status *status) {
    state *s = extra;
    note(s, "query");
    MPI_Status_set_elements(status, MPI_INT, s->elements);
    MPI_Status_set_cancelled(status, s->cancelled >= 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return s->fail ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int free_fn(void *extra) {
    note(extra, "free");
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete) {
    state *s = extra;
    note(s, complete ? "cancel(complete)" : "cancel(pending)");
    s->cancelled = complete;
    return MPI_SUCCESS;
}

static MPI_Request start(state *s, int elements) {
    memset(s, 0, sizeof *s);
    s->elements = elements;
    s->cancelled = -1;
    MPI_Request r;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &r);
    return r;
}

static int rank;

static void report(const char *what, state *s, MPI_Status *st) {
    int count = -1, cancelled = -1;
    if (st) {
        MPI_Get_count(st, MPI_INT, &count);
        MPI_Test_cancelled(st, &cancelled);
    }
    printf("rank %d: %s: [%s] count %d cancelled %d\n", rank, what, s->log, count, cancelled);
}

/* A user op that is not commutative: a - b with the operands in order. */
static void minus(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] = ((int *)in)[i] - ((int *)inout)[i];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    setvbuf(stdout, NULL, _IOLBF, BUFSIZ); /* whole lines: MPICH's ranks share the terminal */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "";
    state s, t;
    MPI_Status st, sts[2];
    MPI_Request r, rs[2];
    int flag = -1;

    if (!strcmp(mode, "never")) {
        r = start(&s, 1);
        MPI_Wait(&r, &st); /* [NEVER] */
    } else if (!strcmp(mode, "twice")) {
        r = start(&s, 1);
        MPI_Grequest_complete(r);
        MPI_Grequest_complete(r); /* [TWICE] */
    } else if (!strcmp(mode, "freepending")) {
        /* Freed before completion: MPI 3.1 section 12.2 runs free_fn at
         * whichever of MPI_Request_free and MPI_Grequest_complete comes last
         * (MPICH 4.0.2 runs it at MPI_Request_free already). */
        r = start(&s, 1);
        MPI_Request keep = r;
        MPI_Request_free(&r);
        note(&s, "freed");
        MPI_Grequest_complete(keep);
        report("free pending", &s, NULL);
    } else if (!strcmp(mode, "queryerr")) {
        r = start(&s, 1);
        s.fail = 1;
        MPI_Grequest_complete(r);
        MPI_Wait(&r, &st); /* [QUERYERR] */
    }

    /* Completed, then waited for: query, then free. */
    r = start(&s, 3 + rank);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    report("complete+wait", &s, &st);

    /* Tested before and after completion. */
    r = start(&s, 2);
    MPI_Test(&r, &flag, &st);
    note(&s, flag ? "done" : "not-yet");
    MPI_Grequest_complete(r);
    MPI_Test(&r, &flag, &st);
    note(&s, flag ? "done" : "not-yet");
    report("test", &s, &st);

    /* MPI_Request_get_status queries without freeing; the wait frees. */
    r = start(&s, 4);
    MPI_Grequest_complete(r);
    MPI_Request_get_status(r, &flag, &st);
    note(&s, flag ? "status" : "no-status");
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    report("get_status+wait", &s, NULL);

    /* Cancelled while pending, then after completion. */
    r = start(&s, 1);
    MPI_Cancel(&r);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    report("cancel pending", &s, &st);
    r = start(&s, 1);
    MPI_Grequest_complete(r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    report("cancel complete", &s, &st);

    /* With a message in one MPI_Waitall, and in MPI_Waitany. */
    int peer = 1 - rank, in = -1, out = 10 + rank;
    rs[0] = start(&s, 6);
    MPI_Irecv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &rs[1]);
    MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    MPI_Grequest_complete(rs[0]);
    MPI_Waitall(2, rs, sts);
    report("waitall", &s, &sts[0]);
    printf("rank %d: waitall message %d\n", rank, in);
    rs[0] = MPI_REQUEST_NULL;
    rs[1] = start(&t, 7);
    MPI_Grequest_complete(rs[1]);
    int index = -1;
    MPI_Waitany(2, rs, &index, &st);
    report("waitany", &t, &st);
    printf("rank %d: waitany index %d\n", rank, index);

    /* MPI_Testsome over two of them, one completed. */
    rs[0] = start(&s, 1);
    rs[1] = start(&t, 2);
    MPI_Grequest_complete(rs[1]);
    int outcount = -1, indices[2] = {-1, -1};
    MPI_Testsome(2, rs, &outcount, indices, sts);
    printf("rank %d: testsome %d index %d\n", rank, outcount, indices[0]);
    MPI_Grequest_complete(rs[0]);
    MPI_Wait(&rs[0], MPI_STATUS_IGNORE);
    report("testsome first", &s, NULL);
    report("testsome second", &t, NULL);

    /* MPI_Status_set_elements_x and MPI_Get_elements_x. */
    MPI_Status xs;
    memset(&xs, 0, sizeof xs);
    MPI_Status_set_elements_x(&xs, MPI_DOUBLE, (MPI_Count)5);
    MPI_Count xe = -1;
    MPI_Get_elements_x(&xs, MPI_DOUBLE, &xe);
    int xc = -1;
    MPI_Get_count(&xs, MPI_DOUBLE, &xc);
    printf("rank %d: set_elements_x %lld count %d\n", rank, (long long)xe, xc);

    /* MPI_Reduce_local and MPI_Op_commutative. */
    int a[2] = {10, 20}, b[2] = {1, 2};
    MPI_Reduce_local(a, b, 2, MPI_INT, MPI_SUM);
    printf("rank %d: reduce_local sum %d %d\n", rank, b[0], b[1]);
    MPI_Op op;
    MPI_Op_create(minus, 0, &op);
    int c[2] = {1, 2};
    MPI_Reduce_local(a, c, 2, MPI_INT, op);
    int commute = -1, commute_sum = -1;
    MPI_Op_commutative(op, &commute);
    MPI_Op_commutative(MPI_SUM, &commute_sum);
    printf("rank %d: reduce_local minus %d %d commutative %d sum %d\n", rank, c[0], c[1], commute,
           commute_sum);
    MPI_Op_free(&op);

    /* MPI_Get_library_version: some text, within bounds. */
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    MPI_Get_library_version(version, &len);
    printf("rank %d: library version %s\n", rank,
           len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && (int)strlen(version) == len ? "ok"
                                                                                          : "bad");

    /* Communicator names. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    char name[MPI_MAX_OBJECT_NAME];
    int nlen = -1;
    MPI_Comm_get_name(dup, name, &nlen);
    printf("rank %d: dup name '%s' %d\n", rank, name, nlen);
    MPI_Comm_set_name(dup, "mine");
    MPI_Comm_get_name(dup, name, &nlen);
    printf("rank %d: dup name '%s' %d\n", rank, name, nlen);
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &nlen);
    printf("rank %d: world name '%s'\n", rank, name);
    MPI_Comm_free(&dup);

    MPI_Finalize();
    return 0;
}
