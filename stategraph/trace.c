/*
 * trace.c - writing trace files and describing steps.
 */
#include "stategraph/trace.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scheduler/symbolize.h"
#include "simulator/sim.h"
#include "util/files.h"

static char *g_so;

void sg_trace_set_program(const char *so_path) {
    g_free(g_so);
    g_so = g_strdup(so_path);
}

static const char *where(uintptr_t offset) {
    if (!offset || !g_so)
        return "?";
    const char *l = sched_symbolize_offset(g_so, offset, true);
    return l ? l : "?";
}

static const char *kind_name(int kind) {
    switch (kind) {
    case SIM_EV_DELIVER:
        return "deliver";
    case SIM_EV_PROBE:
        return "probe";
    case SIM_EV_COLLECTIVE:
        return "collective";
    case SIM_EV_RESUME:
        return "resume";
    case SIM_EV_LOCK:
        return "lock";
    case SIM_EV_ATOMIC:
        return "atomic";
    case SG_STEP_CHOICE:
        return "choice";
    }
    return "?";
}

char *sg_step_describe(const sg_step_view *v) {
    char *choice = v->nalts > 1
                       ? g_strdup_printf(" [alternative %d of %d]", v->choice + 1, v->nalts)
                       : g_strdup("");
    const char *what = v->what;
    char *s;
    switch (v->kind) {
    case SIM_EV_DELIVER:
        s = g_strdup_printf("rank %d receives from rank %d (tag %d): sent at %s, received at %s%s",
                            v->dst, v->src, v->tag, v->from, v->at, choice);
        break;
    case SIM_EV_PROBE:
        s = g_strdup_printf("rank %d's probe at %s sees the message of rank %d (tag %d) sent at "
                            "%s%s",
                            v->dst, v->at, v->src, v->tag, v->from, choice);
        break;
    case SIM_EV_COLLECTIVE:
        s = g_strdup_printf("%s completes on communicator %d%s", what ? what : "a collective",
                            v->comm, choice);
        break;
    case SIM_EV_RESUME:
        s = g_strdup_printf("rank %d goes on after %s at %s before any more message lands in "
                            "its posted receives%s",
                            v->dst, what ? what : "its MPI call", v->at, choice);
        break;
    case SIM_EV_LOCK:
        if (what && g_str_has_prefix(what, "shmem_")) /* OpenSHMEM's (shmem_events.h) */
            s = g_strdup_printf("PE %d gets the lock that its %s at %s asked for%s", v->dst, what,
                                v->at, choice);
        else if (v->src < 0)
            s = g_strdup_printf("rank %d gets the shared locks on every rank of the window of "
                                "communicator %d that %s at %s asked for%s",
                                v->dst, v->comm, what ? what : "MPI_Win_lock_all", v->at, choice);
        else
            s = g_strdup_printf("rank %d gets the %s lock on rank %d (window of communicator %d) "
                                "that %s at %s asked for%s",
                                v->dst, v->tag == SIM_LOCK_EXCLUSIVE ? "exclusive" : "shared",
                                v->src, v->comm, what ? what : "MPI_Win_lock", v->at, choice);
        break;
    case SIM_EV_ATOMIC:
        if (what && g_str_has_prefix(what, "shmem_"))
            s = g_strdup_printf("the %s of PE %d at %s applies at PE %d%s", what, v->dst, v->at,
                                v->src, choice);
        else if (v->src < 0)
            s = g_strdup_printf("the accumulates of rank %d apply at every target of the window "
                                "of communicator %d, completed by %s at %s%s",
                                v->dst, v->comm, what ? what : "its call", v->at, choice);
        else
            s = g_strdup_printf("the accumulates of rank %d apply at rank %d (window of "
                                "communicator %d), completed by %s at %s%s",
                                v->dst, v->src, v->comm, what ? what : "its call", v->at, choice);
        break;
    default:
        if (what && g_str_has_suffix(what, ":now-or-later"))
            s = g_strdup_printf("rank %d at %s: %.*s %s%s", v->dst, v->at,
                                (int)(strlen(what) - strlen(":now-or-later")), what,
                                v->choice ? "says \"not yet\" although it could succeed"
                                          : "succeeds at once",
                                choice);
        else if (what && g_str_has_suffix(what, ":leave-early"))
            s = g_strdup_printf("rank %d at %s: %.*s returns before the others arrive%s", v->dst,
                                v->at, (int)(strlen(what) - strlen(":leave-early")), what,
                                v->choice ? "" : " - no, it waits");
        else
            s = g_strdup_printf("rank %d at %s: %s picks alternative %d of %d", v->dst, v->at,
                                what ? what : "?", v->choice + 1, v->nalts);
        break;
    }
    g_free(choice);
    return s;
}

char *sg_step_text(const sg_step *st) {
    sg_step_view v = {st->kind, st->dst,           st->src,           st->tag,    st->comm,
                      st->what, where(st->site_a), where(st->site_b), st->choice, st->nalts};
    return sg_step_describe(&v);
}

void sg_trace_step_view(const sg_trace_step *st, sg_step_view *v) {
    sg_step_view view = {st->kind,
                         st->dst,
                         st->src,
                         st->tag,
                         st->comm,
                         st->call,
                         st->at ? st->at : "?",
                         st->from && strcmp(st->from, "-") != 0 ? st->from : "?",
                         st->choice - 1,
                         st->nalts};
    *v = view;
}

char *sg_file_sha256(const char *path) {
    char *why = NULL;
    int fd = util_open_regular(path, &why);
    if (fd < 0) {
        g_free(why);
        return g_strdup("unknown");
    }
    GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
    guchar buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        g_checksum_update(ck, buf, n);
    }
    close(fd);
    char *d = n < 0 ? g_strdup("unknown") : g_strdup(g_checksum_get_string(ck));
    g_checksum_free(ck);
    return d;
}

bool sg_trace_write(const char *path, const sg_trace_header *h, const char *finding_kind,
                    const char *location, const char *message, GArray *steps) {
    char *sha = sg_file_sha256(h->so_path);
    const sg_rundesc *run = h->run;
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "ordex-trace %d\n", SG_TRACE_FORMAT);
    g_string_append_printf(s, "# one explored ordering; replay it with: ordex replay %s\n", path);
    g_string_append_printf(s, "program %s\n", h->program);
    g_string_append_printf(s, "program-sha256 %s\n", sha);
    g_string_append_printf(s, "ranks %d\n", run->nranks);
    g_string_append(s, "args");
    for (int i = 1; i < run->argc; i++) {
        char *q = g_shell_quote(run->argv[i]);
        g_string_append_printf(s, " %s", q);
        g_free(q);
    }
    g_string_append(s, "\n");
    g_string_append_printf(s, "send-mode %s\n", sg_send_mode_name(run->send_mode));
    g_string_append_printf(s, "eager-limit %zu\n", run->eager_limit);
    g_string_append_printf(s, "async-progress %s\n", run->async_progress ? "yes" : "no");
    g_string_append_printf(s, "early-collectives %s\n", run->early_collectives ? "yes" : "no");
    g_string_append_printf(s, "test-later %s\n", run->test_later ? "yes" : "no");
    g_string_append_printf(s, "rma-model %s\n", run->rma_separate ? "separate" : "unified");
    g_string_append_printf(s, "buffer-checks %s\n", run->no_buffer_checks ? "off" : "on");
    g_string_append_printf(s, "type-check %s\n", sg_type_check_name(run->type_check));
    g_string_append_printf(s, "stack-size %zu\n", run->stack_size);
    g_string_append_printf(s, "heap-size %zu\n", run->heap_size);
    g_string_append_printf(s, "step-timeout %.17g\n", run->step_timeout_s);
    g_string_append_printf(s, "ordex-version %s\n", ORDEX_VERSION);
    if (finding_kind) {
        char *flat = g_strdelimit(g_strdup(message ? message : ""), "\n", ' ');
        g_string_append_printf(s, "finding %s %s %s\n", finding_kind, location ? location : "-",
                               flat);
        g_free(flat);
    }
    for (guint i = 0; i < steps->len; i++) {
        const sg_step *st = &g_array_index(steps, sg_step, i);
        if (st->kind == SG_STEP_CHOICE)
            g_string_append_printf(s, "step %u choice dst=%d call=%s choice=%d/%d at=%s\n", i + 1,
                                   st->dst, st->what ? st->what : "?", st->choice + 1, st->nalts,
                                   where(st->site_a));
        else
            g_string_append_printf(
                s, "step %u %s dst=%d src=%d tag=%d comm=%d choice=%d/%d at=%s from=%s\n", i + 1,
                kind_name(st->kind), st->dst, st->src, st->tag, st->comm, st->choice + 1, st->nalts,
                where(st->site_a), st->site_b ? where(st->site_b) : "-");
    }
    g_string_append_printf(s, "end %u\n", steps->len); /* a truncated trace lacks this line */
    /* Everything above, digested: an edit anywhere makes the trace another
     * run's, which replay must refuse. */
    char *digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, s->str, (gssize)s->len);
    g_string_append_printf(s, "checksum %s\n", digest);
    g_free(digest);
    g_free(sha);
    FILE *f = fopen(path, "w");
    if (!f) {
        g_string_free(s, TRUE);
        return false;
    }
    size_t w = fwrite(s->str, 1, s->len, f);
    int e = ferror(f) || w != s->len;
    g_string_free(s, TRUE);
    if (fclose(f) != 0 || e) {
        errno = errno ? errno : EIO;
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */

static void step_free(sg_trace_step *st) {
    g_free(st->at);
    g_free(st->from);
    g_free(st->call);
}

void sg_trace_free(sg_trace *t) {
    g_free(t->path);
    g_free(t->program);
    g_free(t->sha256);
    g_free(t->send_mode);
    g_free(t->version);
    g_strfreev(t->args);
    g_free(t->finding);
    g_free(t->finding_kind);
    g_free(t->finding_location);
    if (t->steps) {
        for (guint i = 0; i < t->steps->len; i++)
            step_free(&g_array_index(t->steps, sg_trace_step, i));
        g_array_free(t->steps, TRUE);
    }
    memset(t, 0, sizeof *t);
}

static int kind_of(const char *word) {
    if (strcmp(word, "deliver") == 0)
        return SIM_EV_DELIVER;
    if (strcmp(word, "probe") == 0)
        return SIM_EV_PROBE;
    if (strcmp(word, "collective") == 0)
        return SIM_EV_COLLECTIVE;
    if (strcmp(word, "resume") == 0)
        return SIM_EV_RESUME;
    if (strcmp(word, "lock") == 0)
        return SIM_EV_LOCK;
    if (strcmp(word, "atomic") == 0)
        return SIM_EV_ATOMIC;
    if (strcmp(word, "choice") == 0)
        return SG_STEP_CHOICE;
    return -1;
}

/* Which fields a step line gave. */
enum { F_DST = 1, F_SRC = 2, F_TAG = 4, F_COMM = 8, F_CHOICE = 16, F_CALL = 32 };

/* A field's integer: decimal, from lo to hi, nothing after it (a value that
 * does not fit an int must not wrap into one that does). */
static bool parse_int_field(const char *k, const char *v, long lo, long hi, int *out, char **bad) {
    char *end = NULL;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end) {
        *bad = g_strdup_printf("%s=%s is not a number", k, v);
        return false;
    }
    if (errno == ERANGE || n < lo || n > hi) {
        *bad = g_strdup_printf("%s=%s is out of range (%ld to %ld)", k, v, lo, hi);
        return false;
    }
    *out = (int)n;
    return true;
}

/* Parses "key=value" fields of a step line into st; *given gets the F_*
 * bits of the fields present. */
static bool parse_fields(char **words, sg_trace_step *st, unsigned *given, char **bad) {
    *given = 0;
    for (int i = 0; words[i]; i++) {
        char *eq = strchr(words[i], '=');
        if (!eq) {
            *bad = g_strdup_printf("'%s' is not key=value", words[i]);
            return false;
        }
        *eq = '\0';
        const char *k = words[i], *v = eq + 1;
        unsigned bit = strcmp(k, "dst") == 0      ? F_DST
                       : strcmp(k, "src") == 0    ? F_SRC
                       : strcmp(k, "tag") == 0    ? F_TAG
                       : strcmp(k, "comm") == 0   ? F_COMM
                       : strcmp(k, "choice") == 0 ? F_CHOICE
                       : strcmp(k, "call") == 0   ? F_CALL
                                                  : 0;
        if (bit & *given) {
            *bad = g_strdup_printf("the field '%s' appears twice", k);
            return false;
        }
        *given |= bit;
        bool ok = true;
        /* -1 stands for "none" where a step has no such value (the source
         * of a collective, the tag of a resume). */
        if (bit == F_DST)
            ok = parse_int_field(k, v, 0, INT_MAX, &st->dst, bad);
        else if (bit == F_SRC)
            ok = parse_int_field(k, v, -1, INT_MAX, &st->src, bad);
        else if (bit == F_TAG)
            ok = parse_int_field(k, v, -1, INT_MAX, &st->tag, bad);
        else if (bit == F_COMM)
            ok = parse_int_field(k, v, -1, INT_MAX, &st->comm, bad);
        else if (bit == F_CHOICE) {
            int used = 0;
            if (sscanf(v, "%d/%d%n", &st->choice, &st->nalts, &used) != 2 || v[used] ||
                st->choice < 1 || st->choice > st->nalts) {
                *bad = g_strdup_printf("choice=%s is not k/n with 1 <= k <= n", v);
                return false;
            }
        } else if (strcmp(k, "at") == 0 && !st->at)
            st->at = g_strdup(v);
        else if (strcmp(k, "from") == 0 && !st->from)
            st->from = g_strdup(v);
        else if (bit == F_CALL)
            st->call = g_strdup(v);
        else {
            *bad = g_strdup_printf(strcmp(k, "at") == 0 || strcmp(k, "from") == 0
                                       ? "the field '%s' appears twice"
                                       : "unknown field '%s'",
                                   k);
            return false;
        }
        if (!ok)
            return false;
    }
    return true;
}

/* What a step of its kind must hold, with ranks below nranks: NULL when it
 * does, else the problem (g_free). */
static char *step_problem(const sg_trace_step *st, unsigned given, int nranks) {
    unsigned need = st->kind == SG_STEP_CHOICE      ? F_DST | F_CALL | F_CHOICE
                    : st->kind == SIM_EV_COLLECTIVE ? F_DST | F_COMM | F_CHOICE
                    : st->kind == SIM_EV_RESUME     ? F_DST | F_CHOICE
                                                    : F_DST | F_SRC | F_TAG | F_COMM | F_CHOICE;
    static const char *const names[] = {"dst", "src", "tag", "comm", "choice=k/n", "call"};
    for (int b = 0; b < 6; b++)
        if ((need & (1u << b)) && !(given & (1u << b)))
            return g_strdup_printf("the step has no %s field", names[b]);
    if (st->dst >= nranks)
        return g_strdup_printf("dst=%d names a rank the run does not have (ranks %d)", st->dst,
                               nranks);
    if ((given & F_SRC) && st->src >= nranks)
        return g_strdup_printf("src=%d names a rank the run does not have (ranks %d)", st->src,
                               nranks);
    if (st->kind == SIM_EV_DELIVER || st->kind == SIM_EV_PROBE) {
        if (st->src < 0)
            return g_strdup_printf("src=%d: a message comes from a rank", st->src);
        if (st->tag < 0)
            return g_strdup_printf("tag=%d: a message's tag is not negative", st->tag);
        if (st->comm < 0)
            return g_strdup_printf("comm=%d: a message travels on a communicator", st->comm);
    }
    if (st->kind == SIM_EV_COLLECTIVE && st->comm < 0)
        return g_strdup_printf("comm=%d: a collective runs on a communicator", st->comm);
    return NULL;
}

/* A header's byte count: digits only, at least `least`, at most what a
 * size_t and the address space can hold. */
static bool parse_size_field(const char *key, const char *val, uint64_t least, size_t *out,
                             char **bad) {
    guint64 v = 0;
    if (!g_ascii_string_to_unsigned(val, 10, least, (guint64)1 << 48, &v, NULL)) {
        *bad = g_strdup_printf(
            "%s '%s' is not a number of bytes from %" G_GUINT64_FORMAT " to 2^48", key, val, least);
        return false;
    }
    *out = (size_t)v;
    return true;
}

void sg_trace_rundesc(const sg_trace *t, sg_rundesc *d) {
    sg_rundesc_init(d);
    d->nranks = t->nranks;
    d->argc = (int)g_strv_length(t->args) + 1;
    d->argv = g_new0(char *, d->argc + 1);
    d->argv[0] = t->program;
    for (int i = 1; i < d->argc; i++)
        d->argv[i] = t->args[i - 1];
    d->stack_size = t->stack_size;
    d->heap_size = t->heap_size;
    d->step_timeout_s = t->step_timeout_s;
    if (!sg_send_mode_parse(t->send_mode, &d->send_mode))
        d->send_mode = SIM_SEND_EAGER_BELOW_LIMIT;
    d->eager_limit = t->eager_limit;
    d->exploring = true; /* the same simulated times as when the trace was made */
    d->async_progress = t->async_progress;
    d->early_collectives = t->early_collectives;
    d->test_later = t->test_later;
    d->rma_separate = t->rma_separate;
    d->no_buffer_checks = !t->buffer_checks;
    d->type_check = t->type_check;
}

bool sg_trace_read(const char *path, sg_trace *t, char **err) {
    memset(t, 0, sizeof *t);
    char *text, *why = NULL;
    size_t len;
    if (!util_read_regular(path, SG_TRACE_MAX_BYTES, &text, &len, &why)) {
        *err = g_strdup_printf("%s: cannot read the trace: %s", path, why);
        g_free(why);
        return false;
    }
    t->path = g_strdup(path);
    t->steps = g_array_new(FALSE, TRUE, sizeof(sg_trace_step));
    t->nranks = -1;
    t->type_check = SIM_TYPE_CHECK_OFF; /* a trace from before the checks */
    t->stack_size = SG_RUN_DEFAULT_STACK;
    t->heap_size = SG_RUN_DEFAULT_HEAP;
    t->step_timeout_s = SG_RUN_DEFAULT_STEP_TIMEOUT;
    t->eager_limit = SG_RUN_DEFAULT_EAGER_LIMIT;
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    int version = 0;
    char **lines = g_strsplit(text, "\n", -1);
    bool ok = true, magic = false, ended = false;
    char *bad = NULL;
    char *checksum = NULL;    /* the checksum line's value */
    size_t checked_len = 0;   /* the bytes it covers: all before its line */
    size_t off = 0, next = 0; /* offset of the current line and of the next */
    int ln = 0;
    for (; lines[ln] && ok; ln++) {
        off = next;
        next += strlen(lines[ln]) + 1;
        char *line = g_strstrip(lines[ln]);
        if (checksum && *line) {
            bad = g_strdup("text after the checksum line");
            ok = false;
            break;
        }
        if (!*line || *line == '#')
            continue;
        if (!magic) {
            if (g_str_has_prefix(line, "ordex-trace ") && line[12] >= '1' &&
                line[12] <= '0' + SG_TRACE_FORMAT && !line[13]) {
                version = line[12] - '0';
            } else {
                bad = g_str_has_prefix(line, "ordex-trace ")
                          ? g_strdup_printf("trace format '%s' is not supported (this ordex "
                                            "reads versions 1 to %d)",
                                            line + 12, SG_TRACE_FORMAT)
                          : g_strdup_printf("not an ordex trace (the first line must be "
                                            "'ordex-trace %d')",
                                            SG_TRACE_FORMAT);
                ok = false;
            }
            magic = true;
            continue;
        }
        char *sp = strchr(line, ' ');
        char *key = line, *val = sp ? sp + 1 : (char *)"";
        if (sp)
            *sp = '\0';
        if (version >= 3 && strcmp(key, "checksum") == 0) {
            if (!ended) {
                bad = g_strdup("the trace is truncated (no 'end' line before the checksum)");
                ok = false;
            }
            checksum = g_strdup(val);
            checked_len = off;
        } else if (strcmp(key, "step") != 0 && !g_hash_table_add(seen, g_strdup(key))) {
            bad = g_strdup_printf("the '%s' line appears twice", key);
            ok = false;
        } else if (version >= 2 && strcmp(key, "stack-size") == 0) {
            ok = parse_size_field(key, val, 16384, &t->stack_size, &bad);
        } else if (version >= 2 && strcmp(key, "heap-size") == 0) {
            ok = parse_size_field(key, val, 65536, &t->heap_size, &bad);
        } else if (version >= 2 && strcmp(key, "step-timeout") == 0) {
            char *end;
            double v = g_ascii_strtod(val, &end);
            if (end == val || *end || !(v >= 0 && v <= 1e9)) {
                bad = g_strdup_printf("step-timeout '%s' is not a number of seconds from 0 to 1e9",
                                      val);
                ok = false;
            }
            t->step_timeout_s = v;
        } else if (strcmp(key, "program") == 0)
            t->program = g_strdup(val);
        else if (strcmp(key, "program-sha256") == 0)
            t->sha256 = g_strdup(val);
        else if (strcmp(key, "ranks") == 0) {
            char *end;
            long n = strtol(val, &end, 10);
            if (*end || n < 1) {
                bad = g_strdup_printf("ranks '%s' is not a positive number", val);
                ok = false;
            }
            t->nranks = (int)n;
        } else if (strcmp(key, "args") == 0) {
            int argc = 0;
            char **argv = NULL;
            if (*val && !g_shell_parse_argv(val, &argc, &argv, NULL)) {
                bad = g_strdup("the args line cannot be parsed");
                ok = false;
            }
            t->args = argv ? argv : g_new0(char *, 1);
        } else if (strcmp(key, "send-mode") == 0) {
            if (strcmp(val, "eager") != 0 && strcmp(val, "rendezvous") != 0 &&
                strcmp(val, "auto") != 0) {
                bad = g_strdup_printf("send-mode '%s' is not eager, rendezvous or auto", val);
                ok = false;
            }
            t->send_mode = g_strdup(val);
        } else if (strcmp(key, "eager-limit") == 0)
            ok = parse_size_field(key, val, 0, &t->eager_limit, &bad);
        else if (strcmp(key, "async-progress") == 0) {
            if (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0) {
                bad = g_strdup_printf("async-progress '%s' is not yes or no", val);
                ok = false;
            }
            t->async_progress = strcmp(val, "yes") == 0;
        } else if (strcmp(key, "early-collectives") == 0) {
            if (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0) {
                bad = g_strdup_printf("early-collectives '%s' is not yes or no", val);
                ok = false;
            }
            t->early_collectives = strcmp(val, "yes") == 0;
        } else if (strcmp(key, "test-later") == 0) {
            if (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0) {
                bad = g_strdup_printf("test-later '%s' is not yes or no", val);
                ok = false;
            }
            t->test_later = strcmp(val, "yes") == 0;
        } else if (strcmp(key, "rma-model") == 0) {
            if (strcmp(val, "unified") != 0 && strcmp(val, "separate") != 0) {
                bad = g_strdup_printf("rma-model '%s' is not unified or separate", val);
                ok = false;
            }
            t->rma_separate = strcmp(val, "separate") == 0;
        } else if (strcmp(key, "buffer-checks") == 0) {
            if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0) {
                bad = g_strdup_printf("buffer-checks '%s' is not on or off", val);
                ok = false;
            }
            t->buffer_checks = strcmp(val, "on") == 0;
        } else if (strcmp(key, "type-check") == 0) {
            if (!sg_type_check_parse(val, &t->type_check)) {
                bad = g_strdup_printf("type-check '%s' is not error, warn or off", val);
                ok = false;
            }
        } else if (strcmp(key, "ordex-version") == 0)
            t->version = g_strdup(val);
        else if (strcmp(key, "finding") == 0) {
            t->finding = g_strdup(val);
            char **w = g_strsplit(val, " ", 3);
            if (!w[0] || !*w[0] || !w[1] || !*w[1]) {
                bad = g_strdup("the finding line is not 'finding KIND LOCATION MESSAGE'");
                ok = false;
            } else {
                t->finding_kind = g_strdup(w[0]);
                t->finding_location = strcmp(w[1], "-") == 0 ? NULL : g_strdup(w[1]);
            }
            g_strfreev(w);
        } else if (strcmp(key, "end") == 0) {
            char *end;
            long n = strtol(val, &end, 10);
            if (*end || n != (long)t->steps->len) {
                bad = g_strdup_printf("the trace ends after %u step%s but says %s", t->steps->len,
                                      t->steps->len == 1 ? "" : "s", val);
                ok = false;
            }
            ended = true;
        } else if (ended) {
            bad = g_strdup("text after the end line");
            ok = false;
        } else if (strcmp(key, "step") == 0) {
            char **w = g_strsplit_set(val, " ", -1);
            sg_trace_step st = {0};
            unsigned given = 0;
            st.line = ln + 1;
            char *end;
            long num = w[0] ? strtol(w[0], &end, 10) : 0;
            if (!w[0] || *end || num != (long)t->steps->len + 1) {
                bad = g_strdup_printf("expected step %u", t->steps->len + 1);
                ok = false;
            } else if (!w[1] || (st.kind = kind_of(w[1])) < 0) {
                bad = g_strdup_printf("unknown step kind '%s'", w[1] ? w[1] : "");
                ok = false;
            } else if (t->nranks < 0) {
                bad = g_strdup("a step before the ranks line");
                ok = false;
            } else if (!parse_fields(w + 2, &st, &given, &bad)) {
                ok = false;
            } else if ((bad = step_problem(&st, given, t->nranks))) {
                ok = false;
            }
            if (ok)
                g_array_append_val(t->steps, st);
            else
                step_free(&st);
            g_strfreev(w);
        } else {
            bad = g_strdup_printf("unknown line '%s'", key);
            ok = false;
        }
    }
    if (ok && magic && !ended) {
        bad = g_strdup("the trace is truncated (no 'end' line)");
        ok = false;
        ln = 0;
    }
    if (ok && (!magic || !t->program || !t->sha256 || t->nranks < 0 || !t->send_mode || !t->args)) {
        bad = g_strdup("the header is incomplete (program, program-sha256, ranks, args and "
                       "send-mode are required)");
        ok = false;
        ln = 0;
    }
    if (ok && version >= 3) {
        char *digest =
            g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, checked_len);
        if (!checksum) {
            bad = g_strdup("the checksum line is missing (the trace is truncated or was edited)");
            ok = false;
            ln = 0;
        } else if (strcmp(checksum, digest) != 0) {
            bad = g_strdup("the trace was edited: its content does not match its checksum line "
                           "(record a new trace with ordex explore)");
            ok = false;
            ln = 0;
        }
        g_free(digest);
    }
    g_free(checksum);
    g_free(text);
    g_strfreev(lines);
    g_hash_table_destroy(seen);
    if (!ok) {
        char *line = ln > 0 ? g_strdup_printf("%s:%d: %s", path, ln, bad)
                            : g_strdup_printf("%s: %s", path, bad);
        *err = util_printable(line); /* it echoes the trace's bytes */
        g_free(line);
        g_free(bad);
        sg_trace_free(t);
        return false;
    }
    return true;
}

char *sg_trace_unreproduced(const sg_trace *t, GPtrArray *findings) {
    /* A message race is a pair of orderings whose outcomes differ: one
     * ordering alone has nothing to reproduce. */
    if (!t->finding_kind || strcmp(t->finding_kind, "message_race") == 0)
        return NULL;
    for (guint i = 0; findings && i < findings->len; i++) {
        const sim_finding *f = g_ptr_array_index(findings, i);
        if (strcmp(sim_finding_kind_name(f->kind), t->finding_kind) == 0 &&
            (!t->finding_location ||
             (f->location && strcmp(f->location, t->finding_location) == 0)))
            return NULL;
    }
    return g_strdup_printf("the replay did not reproduce the finding the trace was recorded "
                           "for ([%s]%s%s): the program did not behave as when the trace was made",
                           t->finding_kind, t->finding_location ? " at " : "",
                           t->finding_location ? t->finding_location : "");
}
