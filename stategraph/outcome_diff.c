/*
 * outcome_diff.c - what differs between the outcomes of two orderings (see
 * outcome_diff.h).
 */
#define _GNU_SOURCE
#include "stategraph/outcome_diff.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scheduler/sched.h"
#include "simulator/sim.h"
#include "stategraph/oneshot.h"
#include "stategraph/replay.h"
#include "stategraph/trace.h"

/* Output kept per rank: enough for any difference a person reads; a rank
 * that writes more is compared on its first bytes only. */
#define MAX_OUTPUT ((size_t)4 << 20)
/* Characters of a line shown. */
#define MAX_LINE 160

/* ---------------------------------------------------------------------- */
/* The child: replay, then send what the ranks produced                   */

static void put_u32(GByteArray *b, uint32_t v) {
    g_byte_array_append(b, (const guint8 *)&v, sizeof v);
}

static void put_bytes(GByteArray *b, const void *p, size_t n) {
    put_u32(b, (uint32_t)n);
    if (n)
        g_byte_array_append(b, p, (guint)n);
}

static void put_observed(void *user, const char *name, const void *bytes, size_t size) {
    GByteArray *b = user;
    put_u32(b, 1); /* one more value */
    put_bytes(b, name, strlen(name));
    put_bytes(b, bytes, size);
}

static void write_all(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        c += w;
        n -= (size_t)w;
    }
}

static _Noreturn void fail_child(int fd, const char *why) {
    GByteArray *b = g_byte_array_new();
    put_u32(b, UINT32_MAX);
    put_bytes(b, why, strlen(why));
    write_all(fd, b->data, b->len);
    _exit(1);
}

/* Splits the tagged output ("[rank] line") into the ranks' own outputs. */
static GString **split_tagged(const char *text, size_t len, int nranks) {
    GString **outs = g_new0(GString *, nranks);
    for (int r = 0; r < nranks; r++)
        outs[r] = g_string_new(NULL);
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl + 1 : end;
        char *after = NULL;
        long r = p[0] == '[' ? strtol(p + 1, &after, 10) : -1;
        if (after && after + 2 <= line_end && after[0] == ']' && after[1] == ' ' && r >= 0 &&
            r < nranks && outs[r]->len < MAX_OUTPUT)
            g_string_append_len(outs[r], after + 2, line_end - (after + 2));
        p = line_end;
    }
    return outs;
}

static _Noreturn void replay_child(const sg_rundesc *run, GArray *path, int fd) {
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    FILE *devnull = fopen("/dev/null", "w");
    if (!mem || !devnull)
        fail_child(fd, "cannot open the streams that take the ranks' output");
    sg_rundesc d = *run;
    d.out = mem;
    d.err = devnull;
    d.tag_output = true;
    d.threads = false;
    d.keep_files = false;
    d.seed = 0;
    d.exploring = true; /* as the ordering was explored: the same clocks */
    char *why = NULL;
    if (!sg_oneshot_begin(&d, &why))
        fail_child(fd, why);
    sg_trace t = {0};
    t.path = (char *)"the ordering";
    t.nranks = d.nranks;
    t.steps = g_array_sized_new(FALSE, TRUE, sizeof(sg_trace_step), path->len);
    for (guint i = 0; i < path->len; i++) {
        const sg_step *st = &g_array_index(path, sg_step, i);
        sg_trace_step ts = {st->kind, st->dst,          st->src,   st->tag,
                            st->comm, st->choice + 1,   st->nalts, NULL,
                            NULL,     (char *)st->what, (int)i + 1};
        g_array_append_val(t.steps, ts);
    }
    sg_replay rp = {0};
    rp.trace = &t;
    sched_run_result r = sg_replay_run(&rp);
    if (rp.divergence)
        fail_child(fd, rp.divergence);
    if (r != SCHED_RUN_COMPLETE || rp.pos < t.steps->len)
        fail_child(fd, "the replayed ordering did not end as it did when it was explored");
    sched_flush_output();
    fflush(mem);
    GString **outs = split_tagged(text, len, d.nranks);
    GByteArray *b = g_byte_array_new();
    put_u32(b, (uint32_t)d.nranks);
    for (int k = 0; k < d.nranks; k++) {
        put_u32(b, (uint32_t)sched_rank_state(k));
        put_u32(b, (uint32_t)sched_rank_exit_code(k));
        put_bytes(b, outs[k]->str, outs[k]->len);
        sim_rank_observed(k, put_observed, b);
        put_u32(b, 0); /* no more values */
    }
    write_all(fd, b->data, b->len);
    _exit(0);
}

/* ---------------------------------------------------------------------- */
/* The parent: read it back                                                */

typedef struct reader {
    const guint8 *p, *end;
    bool bad;
} reader;

static uint32_t get_u32(reader *r) {
    uint32_t v = 0;
    if (r->end - r->p < 4) {
        r->bad = true;
        return 0;
    }
    memcpy(&v, r->p, 4);
    r->p += 4;
    return v;
}

static const guint8 *get_bytes(reader *r, uint32_t *n) {
    *n = get_u32(r);
    if (r->bad || (size_t)(r->end - r->p) < *n) {
        r->bad = true;
        *n = 0;
        return NULL;
    }
    const guint8 *at = r->p;
    r->p += *n;
    return at;
}

static bool parse(const GByteArray *msg, sg_path_outcome *out, char **err) {
    reader r = {msg->data, msg->data + msg->len, false};
    uint32_t n = get_u32(&r);
    if (n == UINT32_MAX) {
        uint32_t len;
        const guint8 *why = get_bytes(&r, &len);
        *err = why ? g_strndup((const char *)why, len) : g_strdup("the replay failed");
        return false;
    }
    if (r.bad || n == 0 || n > (1u << 24)) {
        *err = g_strdup("the replay ended without saying what the ranks produced");
        return false;
    }
    out->nranks = (int)n;
    out->ranks = g_new0(sg_rank_end, n);
    for (uint32_t k = 0; k < n; k++) {
        sg_rank_end *e = &out->ranks[k];
        e->names = g_ptr_array_new_with_free_func(g_free);
        e->values = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
        e->state = (int)get_u32(&r);
        e->exit_code = (int)get_u32(&r);
        uint32_t len;
        const guint8 *text = get_bytes(&r, &len);
        e->out = g_string_new_len(text ? (const char *)text : "", len);
        while (!r.bad && get_u32(&r) == 1) {
            uint32_t nlen, vlen;
            const guint8 *name = get_bytes(&r, &nlen);
            const guint8 *value = get_bytes(&r, &vlen);
            g_ptr_array_add(e->names, g_strndup(name ? (const char *)name : "", nlen));
            g_ptr_array_add(e->values, g_bytes_new(value, vlen));
        }
    }
    if (r.bad) {
        sg_path_outcome_clear(out);
        *err = g_strdup("the replay ended before it said everything the ranks produced");
        return false;
    }
    return true;
}

/* The replay under way, and whether replays are to stop. */
static volatile pid_t g_child;
static volatile sig_atomic_t g_stop;

void sg_path_outcome_interrupt(void) {
    g_stop = 1;
    pid_t c = g_child;
    if (c > 0)
        kill(c, SIGKILL);
}

bool sg_path_outcome_of(const sg_rundesc *run, GArray *path, sg_path_outcome *out, char **err) {
    memset(out, 0, sizeof *out);
    if (g_stop) {
        *err = g_strdup("ordex was interrupted");
        return false;
    }
    int fd[2];
    if (pipe(fd) != 0) {
        *err = g_strdup_printf("cannot replay the ordering: %s", g_strerror(errno));
        return false;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        *err = g_strdup_printf("cannot replay the ordering: %s", g_strerror(errno));
        return false;
    }
    if (pid == 0) {
        close(fd[0]);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        replay_child(run, path, fd[1]);
    }
    g_child = pid;
    if (g_stop) /* before g_child was set: the handler could not end it */
        kill(pid, SIGKILL);
    close(fd[1]);
    GByteArray *msg = g_byte_array_new();
    guint8 buf[65536];
    for (;;) {
        ssize_t got = read(fd[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        g_byte_array_append(msg, buf, (guint)got);
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    g_child = 0;
    bool ok;
    if (g_stop) {
        *err = g_strdup("ordex was interrupted");
        ok = false;
    } else if (msg->len == 0) {
        *err = WIFSIGNALED(status)
                   ? g_strdup_printf("the replay of the ordering was killed by signal %d",
                                     WTERMSIG(status))
                   : g_strdup("the replay of the ordering failed");
        ok = false;
    } else {
        ok = parse(msg, out, err);
    }
    g_byte_array_free(msg, TRUE);
    return ok;
}

void sg_path_outcome_clear(sg_path_outcome *o) {
    for (int k = 0; k < o->nranks; k++) {
        sg_rank_end *e = &o->ranks[k];
        if (e->out)
            g_string_free(e->out, TRUE);
        if (e->names)
            g_ptr_array_free(e->names, TRUE);
        if (e->values)
            g_ptr_array_free(e->values, TRUE);
    }
    g_free(o->ranks);
    memset(o, 0, sizeof *o);
}

/* ---------------------------------------------------------------------- */
/* Differences                                                             */

static char *end_text(const sg_rank_end *e) {
    switch (e->state) {
    case SCHED_DONE:
        return g_strdup_printf("exit status %d", e->exit_code);
    case SCHED_FAILED:
        return g_strdup("failed");
    case SCHED_BLOCKED:
        return g_strdup("blocked in MPI");
    default:
        return g_strdup("did not end");
    }
}

/* A line as people read it: control characters as '?', long lines cut. */
static char *line_text(const char *s, size_t n) {
    GString *g = g_string_new(NULL);
    for (size_t i = 0; i < n && i < MAX_LINE; i++)
        g_string_append_c(g, (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
    if (n > MAX_LINE)
        g_string_append(g, "...");
    return g_string_free(g, FALSE);
}

/* The lines of s (without their '\n'), as (start, length) pairs. */
static GArray *lines_of(const GString *s) {
    GArray *a = g_array_new(FALSE, FALSE, sizeof(size_t) * 2);
    size_t at = 0;
    while (at < s->len) {
        const char *nl = memchr(s->str + at, '\n', s->len - at);
        size_t end = nl ? (size_t)(nl - s->str) : s->len;
        size_t span[2] = {at, end - at};
        g_array_append_val(a, span);
        at = end + 1;
    }
    return a;
}

static void diff_output(GArray *diffs, int rank, const GString *a, const GString *b) {
    GArray *la = lines_of(a), *lb = lines_of(b);
    guint n = la->len > lb->len ? la->len : lb->len;
    sg_outcome_diff d = {SG_DIFF_OUTPUT, rank, 0, 0, NULL, NULL, NULL};
    for (guint i = 0; i < n; i++) {
        const size_t *x = i < la->len ? &g_array_index(la, size_t, 2 * i) : NULL;
        const size_t *y = i < lb->len ? &g_array_index(lb, size_t, 2 * i) : NULL;
        bool same = x && y && x[1] == y[1] && memcmp(a->str + x[0], b->str + y[0], x[1]) == 0;
        if (same)
            continue;
        if (d.line) {
            d.more++;
            continue;
        }
        d.line = (int)i + 1;
        d.a = x ? line_text(a->str + x[0], x[1]) : NULL;
        d.b = y ? line_text(b->str + y[0], y[1]) : NULL;
    }
    if (d.line)
        g_array_append_val(diffs, d);
    g_array_free(la, TRUE);
    g_array_free(lb, TRUE);
}

/* A value as people read it: small ones as integers (and in hex), others
 * as the bytes around the first one that differs from `other`. */
static char *value_text(GBytes *v, GBytes *other) {
    gsize n, m;
    const unsigned char *p = g_bytes_get_data(v, &n);
    const unsigned char *q = other ? g_bytes_get_data(other, &m) : NULL;
    if (n == 1 || n == 2 || n == 4 || n == 8) {
        uint64_t u = 0;
        memcpy(&u, p, n); /* little-endian, as on the machines ordex runs on */
        int64_t sv = n == 1 ? (int8_t)u : n == 2 ? (int16_t)u : n == 4 ? (int32_t)u : (int64_t)u;
        return g_strdup_printf("%" G_GINT64_FORMAT " (0x%0*" G_GINT64_MODIFIER "x)", sv,
                               (int)(2 * n), u);
    }
    gsize from = 0;
    while (q && from < n && from < m && p[from] == q[from])
        from++;
    if (from >= n)
        from = 0;
    from -= from % 8;
    GString *g = g_string_new(NULL);
    g_string_append_printf(g, "%zu bytes; from byte %zu:", (size_t)n, (size_t)from);
    for (gsize i = from; i < n && i < from + 16; i++)
        g_string_append_printf(g, " %02x", p[i]);
    if (from + 16 < n)
        g_string_append(g, " ...");
    return g_string_free(g, FALSE);
}

static void diff_observed(GArray *diffs, int rank, const sg_rank_end *a, const sg_rank_end *b) {
    guint n = a->names->len > b->names->len ? a->names->len : b->names->len;
    for (guint i = 0; i < n; i++) {
        const char *na = i < a->names->len ? g_ptr_array_index(a->names, i) : NULL;
        const char *nb = i < b->names->len ? g_ptr_array_index(b->names, i) : NULL;
        GBytes *va = na ? g_ptr_array_index(a->values, i) : NULL;
        GBytes *vb = nb ? g_ptr_array_index(b->values, i) : NULL;
        if (na && nb && strcmp(na, nb) == 0 && g_bytes_equal(va, vb))
            continue;
        sg_outcome_diff d = {SG_DIFF_OBSERVED, rank, 0, 0, g_strdup(na ? na : nb), NULL, NULL};
        bool same_name = na && nb && strcmp(na, nb) == 0;
        d.a = na ? value_text(va, same_name ? vb : NULL) : NULL;
        d.b = nb ? value_text(vb, same_name ? va : NULL) : NULL;
        if (!same_name && na && nb) { /* registered in another order: name both */
            char *x = g_strdup_printf("%s = %s", na, d.a), *y = g_strdup_printf("%s = %s", nb, d.b);
            g_free(d.a);
            g_free(d.b);
            d.a = x;
            d.b = y;
        }
        g_array_append_val(diffs, d);
        return; /* the first one per rank */
    }
}

GArray *sg_outcome_diffs(const sg_path_outcome *a, const sg_path_outcome *b) {
    GArray *diffs = g_array_new(FALSE, FALSE, sizeof(sg_outcome_diff));
    int n = a->nranks < b->nranks ? a->nranks : b->nranks;
    for (int r = 0; r < n; r++) {
        const sg_rank_end *x = &a->ranks[r], *y = &b->ranks[r];
        if (x->state != y->state || (x->state == SCHED_DONE && x->exit_code != y->exit_code)) {
            sg_outcome_diff d = {SG_DIFF_END, r, 0, 0, NULL, end_text(x), end_text(y)};
            g_array_append_val(diffs, d);
        }
        diff_output(diffs, r, x->out, y->out);
        diff_observed(diffs, r, x, y);
    }
    return diffs;
}

void sg_outcome_diffs_free(GArray *diffs) {
    if (!diffs)
        return;
    for (guint i = 0; i < diffs->len; i++) {
        sg_outcome_diff *d = &g_array_index(diffs, sg_outcome_diff, i);
        g_free(d->name);
        g_free(d->a);
        g_free(d->b);
    }
    g_array_free(diffs, TRUE);
}
