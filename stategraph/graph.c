/*
 * graph.c - DOT export of the state graph.
 */
#include "stategraph/graph.h"

#include <errno.h>
#include <stdio.h>

#include "simulator/sim.h"
#include "stategraph/explore.h"
#include "stategraph/trace.h"

static void node_name(char *buf, size_t n, int pass, uint64_t id) {
    snprintf(buf, n, "p%d_%016llx", pass, (unsigned long long)id);
}

/* "0<-2 t7 x.c:144" */
static char *edge_label(const sg_edge *e) {
    if (e->steps == 0)
        return g_strdup("label=\"\"");
    char *text = sg_step_text(&e->first);
    /* The full sentence is too long for a graph: keep it as the tooltip and
     * show who receives from whom. */
    char *shortl;
    if (e->first.kind == SIM_EV_DELIVER || e->first.kind == SIM_EV_PROBE)
        shortl = g_strdup_printf("%d<-%d t%d", e->first.dst, e->first.src, e->first.tag);
    else if (e->first.kind == SIM_EV_COLLECTIVE)
        shortl = g_strdup(e->first.what ? e->first.what : "collective");
    else if (e->first.kind == SIM_EV_RESUME)
        shortl = g_strdup_printf("%d goes on", e->first.dst);
    else if (e->first.kind == SIM_EV_LOCK)
        shortl = g_strdup_printf("%d locks %d", e->first.dst, e->first.src);
    else if (e->first.kind == SIM_EV_ATOMIC)
        shortl = g_strdup_printf("%d's accumulates at %d", e->first.dst, e->first.src);
    else
        shortl = g_strdup_printf("%d: %s #%d", e->first.dst, e->first.what ? e->first.what : "?",
                                 e->first.choice + 1);
    char *more = e->steps > 1 ? g_strdup_printf(" +%u", e->steps - 1) : g_strdup("");
    char *l = g_strdup_printf("label=\"%s%s\", tooltip=\"%s\"", shortl, more, text);
    g_free(more);
    g_free(shortl);
    g_free(text);
    return l;
}

bool sg_graph_write_dot(const char *path, GArray *edges) {
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "digraph ordex {\n  rankdir=TB;\n  node [shape=circle, label=\"\", width=0.2];\n");
    GHashTable *declared = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < edges->len; i++) {
        const sg_edge *e = &g_array_index(edges, sg_edge, i);
        char from[40], to[40];
        node_name(from, sizeof from, e->pass, e->from);
        node_name(to, sizeof to, e->pass, e->to);
        if (e->from == 0 && !g_hash_table_contains(declared, from)) {
            fprintf(f, "  %s [shape=doublecircle, label=\"%s\"];\n", from,
                    e->pass ? "start\\n(unbuffered)" : "start");
            g_hash_table_add(declared, g_strdup(from));
        }
        if (e->to_kind != SG_NODE_STATE && !g_hash_table_contains(declared, to)) {
            fprintf(f, "  %s [shape=box, label=\"%s\", style=filled, fillcolor=%s];\n", to,
                    e->to_kind == SG_NODE_END_ERROR ? "error" : "end",
                    e->to_kind == SG_NODE_END_ERROR ? "red" : "palegreen");
            g_hash_table_add(declared, g_strdup(to));
        }
        char *label = edge_label(e);
        fprintf(f, "  %s -> %s [%s];\n", from, to, label);
        g_free(label);
    }
    fprintf(f, "}\n");
    g_hash_table_destroy(declared);
    int err = ferror(f);
    if (fclose(f) != 0 || err) {
        errno = errno ? errno : EIO;
        return false;
    }
    return true;
}
