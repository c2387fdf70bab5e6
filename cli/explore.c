/*
 * explore.c - `ordex explore`: every relevant message ordering.
 */
#define _GNU_SOURCE
#include "cli/explore.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "cli/program.h"
#include "output/findings.h"
#include "output/json.h"
#include "stategraph/dist.h"
#include "stategraph/explore.h"
#include "stategraph/graph.h"
#include "stategraph/outcome_diff.h"
#include "stategraph/trace.h"
#include "stategraph/verdict.h"
#include "toolchain/compile.h"

#define MAX_STEPS_SHOWN 40
#define MAX_DIFFS_SHOWN 12

typedef struct report_ctx {
    const ordex_opts *o;
    const char *prog;
    sg_trace_header th;
    sg_rundesc run; /* th.run: the explored run, its send mode set per pass */
    char *trace_dir;
    int ntraces;
    bool trace_failed; /* a trace could not be written (said on stderr) */
    out_json json;     /* the report, when --json: its findings array is open */
} report_ctx;

/* The run of `pass`, as its orderings were explored and as traces record it. */
static sg_rundesc pass_run(const report_ctx *rc, int pass) {
    sg_rundesc run = rc->run;
    if (!rc->o->send_mode_given)
        run.send_mode = pass == 0 ? SIM_SEND_EAGER : SIM_SEND_RENDEZVOUS;
    return run;
}

static char *write_trace(report_ctx *rc, const char *kind, const char *location,
                         const char *message, GArray *path, int pass) {
    if (g_mkdir_with_parents(rc->trace_dir, 0755) != 0) {
        if (!rc->trace_failed) /* once: every trace would say the same */
            fprintf(stderr, "ordex: cannot create the trace directory %s: %s; no trace written\n",
                    rc->trace_dir, g_strerror(errno));
        rc->trace_failed = true;
        return NULL;
    }
    char *base = g_path_get_basename(rc->prog);
    char *dot = strrchr(base, '.');
    if (dot)
        *dot = '\0';
    char *file = g_strdup_printf("%s/%s-%d.trace", rc->trace_dir, base, ++rc->ntraces);
    g_free(base);
    rc->run.send_mode = pass_run(rc, pass).send_mode;
    if (!sg_trace_write(file, &rc->th, kind, location, message, path)) {
        fprintf(stderr, "ordex: cannot write %s: %s\n", file, g_strerror(errno));
        rc->trace_failed = true;
        g_free(file);
        return NULL;
    }
    return file;
}

/* What differs between the outcomes of orderings a and b of `pass`
 * (sg_outcome_diff), from a replay of each; NULL with *why set (g_free)
 * when they could not be replayed. */
static GArray *race_diffs(const report_ctx *rc, int pass, GArray *a, GArray *b, char **why) {
    sg_rundesc run = pass_run(rc, pass);
    sg_path_outcome oa, ob;
    if (!sg_path_outcome_of(&run, a, &oa, why))
        return NULL;
    if (!sg_path_outcome_of(&run, b, &ob, why)) {
        sg_path_outcome_clear(&oa);
        return NULL;
    }
    GArray *d = sg_outcome_diffs(&oa, &ob);
    sg_path_outcome_clear(&oa);
    sg_path_outcome_clear(&ob);
    return d;
}

static void print_diffs(FILE *out, GArray *diffs, const char *why) {
    if (!diffs) {
        fprintf(out, "  what differs could not be shown: %s\n", why);
        return;
    }
    if (diffs->len == 0) {
        fprintf(out, "  the replayed orderings show no difference in output lines, exit statuses "
                     "or observed values (their outputs can differ only in a last line without "
                     "a newline, or after their first 4 MiB)\n");
        return;
    }
    fprintf(out, "  what differs between the outcomes:\n");
    for (guint i = 0; i < diffs->len; i++) {
        if (i == MAX_DIFFS_SHOWN) {
            fprintf(out, "    ... %u more (replay the traces to see them)\n", diffs->len - i);
            break;
        }
        const sg_outcome_diff *d = &g_array_index(diffs, sg_outcome_diff, i);
        const char *none = "(none)";
        switch (d->kind) {
        case SG_DIFF_END:
            fprintf(out, "    rank %d ended:\n", d->rank);
            break;
        case SG_DIFF_OUTPUT:
            if (d->more)
                fprintf(out, "    rank %d, output line %d (and %d more line%s):\n", d->rank,
                        d->line, d->more, d->more == 1 ? "" : "s");
            else
                fprintf(out, "    rank %d, output line %d:\n", d->rank, d->line);
            none = "(no such line)";
            break;
        case SG_DIFF_OBSERVED:
            fprintf(out, "    rank %d, observed value %s:\n", d->rank, d->name);
            none = "(not registered)";
            break;
        }
        fprintf(out, "      A: %s\n", d->a ? d->a : none);
        fprintf(out, "      B: %s\n", d->b ? d->b : none);
    }
}

static void json_diffs(out_json *w, GArray *diffs) {
    out_json_array(w, "differences");
    for (guint i = 0; diffs && i < diffs->len; i++) {
        const sg_outcome_diff *d = &g_array_index(diffs, sg_outcome_diff, i);
        out_json_object(w, NULL);
        out_json_int(w, "rank", d->rank);
        out_json_str(w, "what",
                     d->kind == SG_DIFF_END      ? "exit"
                     : d->kind == SG_DIFF_OUTPUT ? "output"
                                                 : "observed");
        if (d->kind == SG_DIFF_OUTPUT) {
            out_json_int(w, "line", d->line);
            out_json_int(w, "more_lines", d->more);
        }
        if (d->kind == SG_DIFF_OBSERVED)
            out_json_str(w, "name", d->name);
        out_json_str(w, "a", d->a);
        out_json_str(w, "b", d->b);
        out_json_end(w);
    }
    out_json_end(w);
}

/* The name of a pass, as the report calls it. */
static const char *pass_name_of(const sg_explore_opts *eo, int pass) {
    return !eo->both_send_modes ? "search" : pass == 0 ? "buffered pass" : "unbuffered pass";
}

/* What a pass covered, one phrase (g_free). */
static char *pass_text(const sg_pass_result *p) {
    if (!p->ran)
        return g_strdup("not run");
    char *counts = g_strdup_printf(
        "%" G_GUINT64_FORMAT " branching state%s, %" G_GUINT64_FORMAT " ordering%s run to the end",
        p->states, p->states == 1 ? "" : "s", p->paths, p->paths == 1 ? "" : "s");
    char *t = p->complete ? g_strdup_printf("complete, %s", counts)
                          : g_strdup_printf("stopped (%s) after %s", p->stopped, counts);
    g_free(counts);
    return t;
}

/* SIGINT and SIGTERM stop the exploration, which then reports what it found. */
static void on_peer_failed(int sig) {}

static void on_stop_signal(int sig) {
    sg_explore_interrupt(sig);
    sg_path_outcome_interrupt(); /* replays of a race's orderings, when reporting */
}

/* Where progress goes: the terminal's line and the JSON lines' file. */
typedef struct progress_sink {
    bool line;        /* stderr is a terminal */
    bool line_shown;  /* a line is on it, to be cleared */
    const char *json; /* --json-progress, or NULL */
    bool json_failed; /* said once */
} progress_sink;

/* Seconds as a short duration. */
static void format_duration(char *buf, size_t n, double s) {
    if (s < 90)
        snprintf(buf, n, "%.0f s", s);
    else if (s < 90 * 60)
        snprintf(buf, n, "%.0f min", s / 60);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
}

static void show_progress_line(progress_sink *ps, const sg_progress *p) {
    if (p->final) {
        if (ps->line_shown)
            fputs("\r\033[K", stderr);
        ps->line_shown = false;
        return;
    }
    if (p->elapsed_s < 1.0)
        return; /* a short search shows none */
    char est[96] = "";
    if (p->done >= 0 && p->remaining_s >= 0) {
        char left[32];
        format_duration(left, sizeof left, p->remaining_s);
        snprintf(est, sizeof est, ", ~%.*f%% done, ~%s left%s", p->done < 0.1 ? 1 : 0,
                 p->done * 100, left, p->passes > 1 ? " in this pass" : "");
    }
    char pass[32] = "";
    if (p->passes > 1)
        snprintf(pass, sizeof pass, ", pass %d/%d", p->pass + 1, p->passes);
    fprintf(stderr,
            "\r\033[Kordex: %" G_GUINT64_FORMAT " state%s, %" G_GUINT64_FORMAT
            " transition%s (%.0f/s), depth %u%s%s, %.0f s",
            p->states, p->states == 1 ? "" : "s", p->transitions, p->transitions == 1 ? "" : "s",
            p->transitions_per_s, p->depth, pass, est, p->elapsed_s);
    fflush(stderr);
    ps->line_shown = true;
}

/* One JSON object on one line, appended and closed at once, so that a
 * reader sees whole lines. */
static void write_progress_json(progress_sink *ps, const sg_progress *p) {
    GString *s = g_string_new(NULL);
    out_json w;
    out_json_init(&w, s, 0);
    out_json_object(&w, NULL);
    out_json_num(&w, "elapsed_s", p->elapsed_s);
    out_json_uint(&w, "states", p->states);
    out_json_uint(&w, "transitions", p->transitions);
    out_json_uint(&w, "paths", p->paths);
    out_json_num(&w, "transitions_per_s", p->transitions_per_s);
    out_json_uint(&w, "depth", p->depth);
    out_json_int(&w, "pass", p->pass + 1);
    out_json_int(&w, "passes", p->passes);
    if (p->done >= 0)
        out_json_num(&w, "done", p->done);
    else
        out_json_null(&w, "done");
    if (p->remaining_s >= 0)
        out_json_num(&w, "remaining_s", p->remaining_s);
    else
        out_json_null(&w, "remaining_s");
    out_json_str(&w, "estimate_basis", p->basis);
    out_json_str(&w, "checkpoint", p->checkpoint);
    out_json_bool(&w, "final", p->final);
    out_json_end(&w);
    g_string_append_c(s, '\n');
    int fd = open(ps->json, O_WRONLY | O_APPEND | O_CLOEXEC);
    bool ok = fd >= 0 && write(fd, s->str, s->len) == (ssize_t)s->len;
    if (fd >= 0)
        close(fd);
    if (!ok && !ps->json_failed) {
        fprintf(stderr, "ordex: cannot write %s: %s\n", ps->json, g_strerror(errno));
        ps->json_failed = true;
    }
    g_string_free(s, TRUE);
}

static void on_progress(const sg_progress *p, void *user) {
    progress_sink *ps = user;
    if (ps->line)
        show_progress_line(ps, p);
    if (ps->json)
        write_progress_json(ps, p);
}

static void print_path(FILE *out, GArray *path, int from, int highlight_from) {
    int shown = 0;
    for (guint i = (guint)from; i < path->len; i++) {
        if (shown++ == MAX_STEPS_SHOWN) {
            fprintf(out, "      ... %u more step%s (see the trace)\n", path->len - i,
                    path->len - i == 1 ? "" : "s");
            break;
        }
        char *t = sg_step_text(&g_array_index(path, sg_step, i));
        fprintf(out, "   %s%3u. %s\n", (int)i >= highlight_from ? "*" : " ", i + 1, t);
        g_free(t);
    }
}

/* A refusal before the search: frees what ordex_explore holds by then. */
static int refuse(ordex_opts *o, char *ckpt_why, char *so) {
    g_free(ckpt_why);
    g_free(so);
    ordex_opts_free(o);
    return 2;
}

int ordex_explore(int argc, char **argv) {
    ordex_opts o;
    if (ordex_parse_common(argc, argv, "explore", &o) != 0) {
        ordex_opts_free(&o);
        return 2;
    }
    sg_strategy strategy = SG_EXHAUSTIVE;
    if (o.strategy) {
        if (strcmp(o.strategy, "bfs") == 0)
            strategy = SG_BFS;
        else if (strcmp(o.strategy, "random") == 0)
            strategy = SG_RANDOM;
        else if (strcmp(o.strategy, "dfs-branches") == 0)
            strategy = SG_DFS_BRANCHES;
        else if (strcmp(o.strategy, "exhaustive") != 0) {
            fprintf(stderr,
                    "ordex explore: --strategy=%s: unknown strategy (exhaustive, bfs, "
                    "dfs-branches or random)\n",
                    o.strategy);
            ordex_opts_free(&o);
            return 2;
        }
    }
    bool replay_ckpt = false, copy_ckpt = false;
    /* Why the snapshots are not the default copies (g_free), or NULL. */
    char *ckpt_why = NULL;
    if (o.checkpoint && strcmp(o.checkpoint, "replay") == 0) {
        replay_ckpt = true;
        ckpt_why = g_strdup("--checkpoint=replay");
    } else if (o.checkpoint && strcmp(o.checkpoint, "fork") == 0) {
        ckpt_why = g_strdup("--checkpoint=fork");
    } else if (!o.checkpoint || strcmp(o.checkpoint, "copy") == 0) {
        const char *why = sg_copy_checkpoints_unavailable();
        if (why)
            ckpt_why = g_strdup_printf("copy snapshots are not available: %s", why);
        else
            copy_ckpt = true;
    } else {
        if (strcmp(o.checkpoint, "criu") == 0) {
            int st = 0;
            char *outp = NULL, *errp = NULL;
            const char *cargv[] = {"criu", "check", NULL};
            bool ran = g_spawn_sync(NULL, (char **)cargv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                    &outp, &errp, &st, NULL);
            fprintf(stderr, "ordex explore: --checkpoint=criu: %s; use --checkpoint=fork\n",
                    !ran ? "criu is not installed (Debian package criu)"
                    : g_spawn_check_wait_status(st, NULL)
                        ? "criu works on this kernel, but ordex's CRIU backend is not available "
                          "in this version"
                        : "`criu check` fails on this kernel, so CRIU images cannot be used");
            g_free(outp);
            g_free(errp);
        } else {
            fprintf(stderr,
                    "ordex explore: --checkpoint=%s: unknown (fork, copy, replay or criu)\n",
                    o.checkpoint);
        }
        return refuse(&o, ckpt_why, NULL);
    }
    bool tree = strategy == SG_EXHAUSTIVE || strategy == SG_DFS_BRANCHES;
    if (o.distributed) {
        /* Work moves between ranks as prefixes that copy snapshots give away. */
        const char *bad = !tree        ? "only with the exhaustive or dfs-branches strategy"
                          : !copy_ckpt ? (o.checkpoint && strcmp(o.checkpoint, "copy") != 0
                                              ? "only with copy snapshots (the default)"
                                              : "copy snapshots are not available here")
                          : o.jobs > 1 ? "explores with one job per MPI process (start more "
                                         "processes with mpiexec.mpich -n instead of --jobs)"
                                       : NULL;
        if (bad) {
            fprintf(stderr, "ordex explore: --distributed: %s%s%s\n", bad,
                    ckpt_why && !copy_ckpt ? ": " : "", ckpt_why && !copy_ckpt ? ckpt_why : "");
            return refuse(&o, ckpt_why, NULL);
        }
        o.jobs = 1;
    }
    bool jobs_defaulted = o.jobs == 0;
    if (o.jobs == 0) {
        /* Every core by default, where the work can be shared. */
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        o.jobs = !tree || replay_ckpt || cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
    }
    if (o.jobs > 1 && (replay_ckpt || !tree)) {
        fprintf(stderr,
                "ordex explore: --jobs %d: only with copy or fork checkpoints and the exhaustive "
                "or dfs-branches strategy\n",
                o.jobs);
        return refuse(&o, ckpt_why, NULL);
    }
    const char *prog = o.run.argv[0];
    char *so =
        g_str_has_suffix(prog, ".c") ? tc_compile_cached(prog, true, false, true) : g_strdup(prog);
    if (!so) {
        return refuse(&o, ckpt_why, NULL);
    }
    char *problem = ordex_program_problem(so);
    if (problem) {
        fprintf(stderr, "ordex: %s\n", problem);
        g_free(problem);
        return refuse(&o, ckpt_why, so);
    }

    if (o.json_progress) {
        /* Created (emptied) now: a path that cannot be written is bad input,
         * said before a distributed exploration's job starts (every process
         * creates it; rank 0 writes it). */
        int fd = open(o.json_progress, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            fprintf(stderr, "ordex explore: --json-progress %s: %s\n", o.json_progress,
                    g_strerror(errno));
            return refuse(&o, ckpt_why, so);
        }
        close(fd);
    }

    int dist_rank = 0, dist_size = 1;
    if (o.distributed) {
        char *why = NULL;
        if (!sg_dist_start(&why)) {
            fprintf(stderr, "ordex explore: --distributed: %s\n", why);
            g_free(why);
            return refuse(&o, ckpt_why, so);
        }
        dist_rank = sg_dist_rank();
        dist_size = sg_dist_size();
        /* mpiexec.mpich -disable-auto-cleanup tells the processes left that
         * one failed with SIGUSR1: the agents find out themselves. */
        struct sigaction note;
        memset(&note, 0, sizeof note);
        note.sa_handler = on_peer_failed;
        note.sa_flags = SA_RESTART;
        sigemptyset(&note.sa_mask);
        sigaction(SIGUSR1, &note, NULL);
    }
    /* Rank 0 of a distributed exploration alone reports. */
    bool reporter = dist_rank == 0;
    progress_sink sink = {reporter && isatty(2) && !o.quiet, false,
                          reporter ? o.json_progress : NULL, false};

    sg_explore_opts eo = {0};
    eo.run = o.run;
    eo.run.so = so;
    eo.por = !o.no_por;
    eo.both_send_modes = !o.send_mode_given;
    eo.max_states = o.max_states;
    eo.max_time_s = o.max_time;
    eo.max_memory = o.max_memory;
    if (sink.line || sink.json) {
        eo.on_progress = on_progress;
        eo.progress_user = &sink;
    }
    eo.strategy = strategy;
    eo.runs = o.runs;
    eo.branches = o.branches;
    eo.replay_checkpoints = replay_ckpt;
    eo.copy_checkpoints = copy_ckpt;
    eo.graph = o.graph != NULL;
    eo.jobs = o.jobs;
    eo.jobs_defaulted = jobs_defaulted;
    eo.distributed = o.distributed;
    sg_explore_result res;
    char *err = NULL;
    struct sigaction stop_sa, old_int, old_term;
    memset(&stop_sa, 0, sizeof stop_sa);
    stop_sa.sa_handler = on_stop_signal;
    stop_sa.sa_flags = SA_RESTART;
    sigemptyset(&stop_sa.sa_mask);
    sigaction(SIGINT, &stop_sa, &old_int);
    sigaction(SIGTERM, &stop_sa, &old_term);
    bool explored = sg_explore(&eo, &res, &err);
    if (!explored) {
        if (dist_size > 1)
            fprintf(stderr, "ordex (rank %d of %d): %s\n", dist_rank, dist_size, err);
        else
            fprintf(stderr, "ordex: %s\n", err);
        /* Distributed, the job's status is rank 0's (mpiexec.mpich ORs its
         * processes'): another rank that failed ends with it too. */
        int status = 2;
        if (o.distributed && !reporter)
            status = sg_dist_wait_status();
        sg_dist_share_status(2);
        sg_dist_end();
        g_free(err);
        sg_explore_result_free(&res);
        g_free(so);
        g_free(ckpt_why);
        ordex_opts_free(&o);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        return status;
    }
    if (!reporter) { /* rank 0 has this rank's findings and counts */
        /* Every process of the job ends with rank 0's status, so that
         * mpiexec.mpich's says the verdict whichever process it reports. */
        int status = sg_dist_wait_status();
        bool failed = sg_dist_failed();
        sg_dist_end();
        if (failed)
            fprintf(stderr,
                    "ordex (rank %d of %d): %s: what this rank explored is lost to rank 0, "
                    "which reports the search incomplete (if mpiexec.mpich was given "
                    "-disable-auto-cleanup; else it ends every process)\n",
                    dist_rank, dist_size,
                    sg_dist_failure() ? sg_dist_failure() : "the MPI agent of this rank ended");
        sg_explore_result_free(&res);
        g_free(so);
        g_free(ckpt_why);
        ordex_opts_free(&o);
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        return failed ? 2 : status;
    }

    sg_trace_set_program(so);
    report_ctx rcx = {0};
    rcx.o = &o;
    rcx.prog = prog;
    char *abs_prog = g_canonicalize_filename(prog, NULL); /* replayable from anywhere */
    rcx.th.program = abs_prog;
    rcx.th.so_path = so;
    rcx.run = eo.run;
    rcx.th.run = &rcx.run;
    rcx.trace_dir = g_strdup(o.trace_dir ? o.trace_dir : "ordex-traces");
    sg_verdict v;
    sg_verdict_of(&eo, &res, o.divergence, o.leaks, &v);
    GString *j = g_string_new(NULL);
    out_json_init(&rcx.json, j, 2);
    out_json_object(&rcx.json, NULL);
    out_json_str(&rcx.json, "verdict", v.word);
    out_json_str(&rcx.json, "program", prog);
    out_json_str(&rcx.json, "strategy",
                 strategy == SG_BFS            ? "bfs"
                 : strategy == SG_RANDOM       ? "random"
                 : strategy == SG_DFS_BRANCHES ? "dfs-branches"
                                               : "exhaustive");
    if (strategy == SG_DFS_BRANCHES) {
        out_json_int(&rcx.json, "branches", o.branches);
        out_json_uint(&rcx.json, "cut_by_bound", res.bound_cuts);
    }
    out_json_int(&rcx.json, "ranks", o.run.nranks);
    /* The snapshots the search started with, why when not the default
     * copies, and why copies gave way to fork snapshots, if they did. */
    out_json_str(&rcx.json, "checkpoint", replay_ckpt ? "replay" : copy_ckpt ? "copy" : "fork");
    out_json_str(&rcx.json, "checkpoint_reason", ckpt_why ? ckpt_why : "default");
    out_json_str(&rcx.json, "checkpoint_switched", res.checkpoint_switched);
    out_json_int(&rcx.json, "jobs", res.jobs_one_why ? 1 : eo.jobs);
    out_json_int(&rcx.json, "processes", dist_size); /* MPI processes (--distributed) */
    out_json_str(&rcx.json, "jobs_reason",
                 res.jobs_one_why ? res.jobs_one_why
                 : o.distributed  ? "--distributed"
                 : jobs_defaulted ? "default"
                                  : "--jobs");
    if (res.checkpoint_switched) {
        out_json_str(&rcx.json, "checkpoint_switched_to", "fork");
        out_json_str(&rcx.json, "checkpoint_switched_in", pass_name_of(&eo, res.switched_pass));
        out_json_uint(&rcx.json, "checkpoint_switched_after_states", res.switched_states);
    }
    out_json_array(&rcx.json, "findings");
    FILE *out = stderr; /* ordex's report; stdout is the program's (README, "Output") */

    /* Errors, then warnings. */
    for (guint i = 0; i < v.errors->len + v.warnings->len; i++) {
        bool warning = i >= v.errors->len;
        sg_finding *f = warning ? g_ptr_array_index(v.warnings, i - v.errors->len)
                                : g_ptr_array_index(v.errors, i);
        const char *kind = sim_finding_kind_name(f->kind);
        if (strcmp(kind, "unsupported") == 0) /* ordex's limit, not the program's error */
            fprintf(out, "UNSUPPORTED %s\n", f->message);
        else
            fprintf(out, "%s [%s] %s%s\n", warning ? "WARNING" : "ERROR", kind, f->message,
                    sg_buffering_note(&eo, f->pass, f->message));
        if (f->location)
            fprintf(out, "  at %s\n", f->location);
        if (f->details)
            fputs(f->details, out);
        /* A warning (a leak) is seldom about the ordering: no ordering, no
         * trace, which would be one file per leaked handle's call site. */
        char *trace = NULL;
        if (!warning) {
            fprintf(out, "  ordering (%u step%s):\n", f->path->len, f->path->len == 1 ? "" : "s");
            print_path(out, f->path, 0, (int)f->path->len);
            trace = write_trace(&rcx, kind, f->location, f->message, f->path, f->pass);
            if (trace)
                fprintf(out, "  trace: %s (replay: ordex replay %s)\n", trace, trace);
        }
        out_json_finding(&rcx.json, kind, warning, f->ranks, f->nranks, f->message, f->location,
                         f->details, trace);
        g_free(trace);
        fputc('\n', out);
    }

    if (v.race_pass >= 0) {
        int pass = v.race_pass;
        const sg_pass_outcomes *po = &res.outcomes[pass];
        GArray *a = po->a, *b = po->b;
        guint prefix = po->prefix;
        char *noutcomes =
            g_strdup_printf("%s%" G_GUINT64_FORMAT, po->at_least ? "at least " : "", po->distinct);
        fprintf(out,
                "%s [message_race] the outcome depends on the message ordering: %s different "
                "outcomes (output, exit status or observed values)%s\n",
                v.race_is_error ? "ERROR" : "WARNING", noutcomes,
                sg_buffering_note(&eo, pass, NULL));
        if (prefix == 0)
            fprintf(out, "  two orderings differ from the first step (marked *):\n");
        else if (prefix == 1)
            fprintf(out, "  two orderings share their first step, then differ (marked *):\n");
        else
            fprintf(out, "  two orderings share their first %u steps, then differ (marked *):\n",
                    prefix);
        fprintf(out, "  ordering A:\n");
        print_path(out, a, prefix > 3 ? (int)prefix - 3 : 0, (int)prefix);
        fprintf(out, "  ordering B:\n");
        print_path(out, b, prefix > 3 ? (int)prefix - 3 : 0, (int)prefix);
        /* The outcomes were kept as hashes: replay both orderings to show
         * what they consist of (not once ordex is being stopped). */
        char *why = NULL;
        GArray *diffs = res.interrupted ? NULL : race_diffs(&rcx, pass, a, b, &why);
        print_diffs(out, diffs, why ? why : "ordex was interrupted");
        char *ta = write_trace(&rcx, "message_race", NULL, "ordering A", a, pass);
        char *tb = write_trace(&rcx, "message_race", NULL, "ordering B", b, pass);
        if (ta && tb)
            fprintf(out, "  traces: %s %s\n", ta, tb);
        const sg_step *d = &g_array_index(a, sg_step, prefix < a->len ? prefix : 0);
        int ranks[1] = {d->dst};
        char *msg =
            g_strdup_printf("the outcome depends on the message ordering (%s outcomes)", noutcomes);
        out_json_finding_open(&rcx.json, "message_race", !v.race_is_error, ranks, 1, msg, NULL,
                              NULL, ta);
        if (ta && tb) {
            out_json_array(&rcx.json, "traces");
            out_json_str(&rcx.json, NULL, ta);
            out_json_str(&rcx.json, NULL, tb);
            out_json_end(&rcx.json);
        }
        if (diffs)
            json_diffs(&rcx.json, diffs);
        out_json_end(&rcx.json);
        sg_outcome_diffs_free(diffs);
        g_free(why);
        g_free(msg);
        g_free(noutcomes);
        g_free(ta);
        g_free(tb);
        fputc('\n', out);
    }

    bool bounded = strategy == SG_DFS_BRANCHES;
    if (res.incomplete)
        fprintf(out, "INCOMPLETE: %s; what is reported covers only the orderings explored\n",
                res.incomplete_why);
    char *how = bounded ? g_strdup_printf("dfs-branches (at most %d departure%s from the default "
                                          "order along an ordering), ",
                                          o.branches, o.branches == 1 ? "" : "s")
                        : g_strdup("");
    fprintf(
        out,
        "ordex explore: %d rank%s, %s%s%s: %" G_GUINT64_FORMAT
        " branching state%s, %" G_GUINT64_FORMAT " transition%s, %" G_GUINT64_FORMAT
        " ordering%s run to the end, %" G_GUINT64_FORMAT
        " merged into known states, %" G_GUINT64_FORMAT " snapshot%s, peak %.1f MiB, %.2f s%s\n",
        o.run.nranks, o.run.nranks == 1 ? "" : "s", how,
        strategy == SG_BFS           ? "one ordering (messages delivered in send order)"
        : strategy == SG_RANDOM      ? "random orderings"
        : eo.por && !res.por_off_why ? "with partial-order reduction"
                                     : "without reduction",
        replay_ckpt ? " (replay checkpoints)" : "", res.states, res.states == 1 ? "" : "s",
        res.transitions, res.transitions == 1 ? "" : "s", res.paths, res.paths == 1 ? "" : "s",
        res.merged, res.snapshots, res.snapshots == 1 ? "" : "s", (double)res.peak_rss / (1 << 20),
        res.elapsed_s, eo.both_send_modes ? ", standard sends both buffered and unbuffered" : "");
    g_free(how);
    if (eo.both_send_modes) {
        char *p0 = pass_text(&res.passes[0]), *p1 = pass_text(&res.passes[1]);
        fprintf(out, "ordex explore: buffered sends: %s; unbuffered sends: %s\n", p0, p1);
        g_free(p0);
        g_free(p1);
    }
    if (res.jobs_one_why)
        fprintf(out, "ordex explore: one job: %s\n", res.jobs_one_why);
    if (res.por_off_why)
        fprintf(out, "ordex explore: no reduction: %s\n", res.por_off_why);
    if (o.distributed)
        fprintf(out, "ordex explore: distributed over %d MPI process%s (one job each)\n", dist_size,
                dist_size == 1 ? "" : "es");
    if (res.checkpoint_switched)
        fprintf(
            out,
            "ordex explore: copy snapshots could not go on (%s) in the %s after %" G_GUINT64_FORMAT
            " branching state%s; the search went on from there with fork snapshots\n",
            res.checkpoint_switched, pass_name_of(&eo, res.switched_pass), res.switched_states,
            res.switched_states == 1 ? "" : "s");
    else if (!copy_ckpt && !replay_ckpt && (!o.checkpoint || strcmp(o.checkpoint, "copy") == 0))
        fprintf(out, "ordex explore: fork snapshots: %s\n", ckpt_why); /* not the copies meant */
    if (bounded && !res.incomplete) {
        if (res.bound_cuts == 0)
            fprintf(out,
                    "ordex explore: no ordering needed more than %d departure%s from the default "
                    "order: every ordering was explored\n",
                    o.branches, o.branches == 1 ? "" : "s");
        else
            fprintf(out,
                    "ordex explore: bounded search: all orderings with at most %d departure%s "
                    "from the default order were explored (%" G_GUINT64_FORMAT
                    " alternative%s left out by the bound)\n",
                    o.branches, o.branches == 1 ? "" : "s", res.bound_cuts,
                    res.bound_cuts == 1 ? "" : "s");
    }
    char *warned =
        v.nwarnings ? g_strdup_printf(" (%d warning%s)", v.nwarnings, v.nwarnings == 1 ? "" : "s")
                    : g_strdup("");
    if (strcmp(v.word, "unsupported") == 0)
        fprintf(out, "ordex explore: the program needs what ordex does not support\n");
    else if (v.nerrors)
        fprintf(out, "ordex explore: %d error%s found%s\n", v.nerrors, v.nerrors == 1 ? "" : "s",
                warned);
    else if (!res.incomplete && v.every)
        fprintf(out, "ordex explore: all orderings explored: no error exists for this input%s%s\n",
                v.race_pass >= 0 ? " (but the outcome depends on the ordering)" : "", warned);
    else if (!res.incomplete && bounded)
        fprintf(out,
                "ordex explore: no error found with at most %d departure%s from the default "
                "order (not exhaustive: orderings with more departures may still fail)%s\n",
                o.branches, o.branches == 1 ? "" : "s", warned);
    else if (!res.incomplete)
        fprintf(out,
                "ordex explore: no error found in the orderings run (not exhaustive: other "
                "orderings may still fail)%s\n",
                warned);
    g_free(warned);

    int status = v.status;
    if (o.graph) {
        if (sg_graph_write_dot(o.graph, res.edges))
            fprintf(out, "ordex explore: state graph written to %s (%u edges)\n", o.graph,
                    res.edges->len);
        else {
            fprintf(stderr, "ordex: cannot write %s: %s\n", o.graph, g_strerror(errno));
            status = 2;
        }
    }
    out_json *w = &rcx.json;
    out_json_end(w); /* findings */
    out_json_object(w, "stats");
    out_json_uint(w, "states", res.states);
    out_json_uint(w, "transitions", res.transitions);
    out_json_uint(w, "paths", res.paths);
    out_json_uint(w, "merged", res.merged);
    out_json_uint(w, "snapshots", res.snapshots);
    out_json_num(w, "elapsed_s", res.elapsed_s);
    out_json_uint(w, "peak_rss_bytes", res.peak_rss);
    out_json_bool(w, "por", eo.por && !res.por_off_why);
    if (res.por_off_why)
        out_json_str(w, "por_off_reason", res.por_off_why);
    out_json_array(w, "outcomes");
    out_json_uint(w, NULL, res.outcomes[0].distinct);
    out_json_uint(w, NULL, res.outcomes[1].distinct);
    out_json_end(w);
    out_json_end(w);
    out_json_array(w, "passes");
    for (int pass = 0; pass < (eo.both_send_modes ? 2 : 1); pass++) {
        const sg_pass_result *pr = &res.passes[pass];
        out_json_object(w, NULL);
        out_json_str(w, "sends",
                     !eo.both_send_modes ? sg_send_mode_name(eo.run.send_mode)
                     : pass == 0         ? "buffered"
                                         : "unbuffered");
        out_json_bool(w, "ran", pr->ran);
        out_json_bool(w, "complete", pr->complete);
        out_json_str(w, "stopped", pr->stopped);
        out_json_uint(w, "states", pr->states);
        out_json_uint(w, "transitions", pr->transitions);
        out_json_uint(w, "paths", pr->paths);
        out_json_end(w);
    }
    out_json_end(w);
    if (res.incomplete)
        out_json_str(w, "incomplete", res.incomplete_why);
    out_json_end(w);
    char *werr = NULL;
    if (o.json && !out_json_save(j, o.json, &werr)) {
        fprintf(stderr, "ordex: %s\n", werr);
        g_free(werr);
        status = 2;
    }
    if (rcx.trace_failed)
        status = 2;
    sg_dist_share_status(status); /* the other ranks end with it */
    sg_dist_end();
    g_string_free(j, TRUE);
    g_free(ckpt_why);
    g_free(rcx.trace_dir);
    g_free(abs_prog);
    sg_verdict_clear(&v);
    sg_explore_result_free(&res);
    g_free(so);
    ordex_opts_free(&o);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return status;
}
