/*
 * trace.c - writing trace files and describing steps.
 */
#include "stategraph/trace.h"

#include <errno.h>
#include <string.h>

#include "scheduler/symbolize.h"
#include "simulator/sim.h"

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
    case SG_STEP_CHOICE:
        return "choice";
    }
    return "?";
}

char *sg_step_text(const sg_step *st) {
    char *choice = st->nalts > 1 ? g_strdup_printf(" [alternative %d of %d]", st->choice + 1,
                                                   st->nalts)
                                 : g_strdup("");
    char *s;
    switch (st->kind) {
    case SIM_EV_DELIVER:
        s = g_strdup_printf("rank %d receives from rank %d (tag %d): sent at %s, received at %s%s",
                            st->dst, st->src, st->tag, where(st->site_b), where(st->site_a),
                            choice);
        break;
    case SIM_EV_PROBE:
        s = g_strdup_printf("rank %d's probe at %s sees the message of rank %d (tag %d) sent at "
                            "%s%s",
                            st->dst, where(st->site_a), st->src, st->tag, where(st->site_b),
                            choice);
        break;
    case SIM_EV_COLLECTIVE:
        s = g_strdup_printf("%s completes on communicator %d%s", st->what ? st->what : "?",
                            st->comm, choice);
        break;
    default:
        s = g_strdup_printf("rank %d: %s at %s returns completion %d of %d", st->dst,
                            st->what ? st->what : "?", where(st->site_a), st->choice + 1,
                            st->nalts);
        break;
    }
    g_free(choice);
    return s;
}

static char *file_sha256(const char *path) {
    gchar *data;
    gsize len;
    if (!g_file_get_contents(path, &data, &len, NULL))
        return g_strdup("unknown");
    char *d = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
    g_free(data);
    return d;
}

bool sg_trace_write(const char *path, const sg_trace_header *h, const char *finding_kind,
                    const char *location, const char *message, GArray *steps) {
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    char *sha = file_sha256(h->so_path);
    fprintf(f, "ordex-trace 1\n");
    fprintf(f, "# one explored ordering; replay it with: ordex replay %s\n", path);
    fprintf(f, "program %s\n", h->program);
    fprintf(f, "program-sha256 %s\n", sha);
    fprintf(f, "ranks %d\n", h->nranks);
    fprintf(f, "args");
    for (int i = 0; i < h->argc; i++) {
        char *q = g_shell_quote(h->argv[i]);
        fprintf(f, " %s", q);
        g_free(q);
    }
    fprintf(f, "\n");
    fprintf(f, "send-mode %s\n", h->send_mode);
    fprintf(f, "eager-limit %zu\n", h->eager_limit);
    fprintf(f, "ordex-version %s\n", ORDEX_VERSION);
    if (finding_kind) {
        char *flat = g_strdelimit(g_strdup(message ? message : ""), "\n", ' ');
        fprintf(f, "finding %s %s %s\n", finding_kind, location ? location : "-", flat);
        g_free(flat);
    }
    for (guint i = 0; i < steps->len; i++) {
        const sg_step *st = &g_array_index(steps, sg_step, i);
        if (st->kind == SG_STEP_CHOICE)
            fprintf(f, "step %u choice dst=%d call=%s choice=%d/%d at=%s\n", i + 1, st->dst,
                    st->what ? st->what : "?", st->choice + 1, st->nalts, where(st->site_a));
        else
            fprintf(f, "step %u %s dst=%d src=%d tag=%d comm=%d choice=%d/%d at=%s from=%s\n",
                    i + 1, kind_name(st->kind), st->dst, st->src, st->tag, st->comm,
                    st->choice + 1, st->nalts, where(st->site_a),
                    st->site_b ? where(st->site_b) : "-");
    }
    g_free(sha);
    int e = ferror(f);
    if (fclose(f) != 0 || e) {
        errno = errno ? errno : EIO;
        return false;
    }
    return true;
}
