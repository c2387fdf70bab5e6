/*
 * graph.h - the explored state graph as Graphviz DOT.
 */
#ifndef ORDEX_SG_GRAPH_H
#define ORDEX_SG_GRAPH_H

#include <glib.h>
#include <stdbool.h>

/* Writes edges (sg_edge) as a DOT digraph: one node per branching state
 * (merged states are one node), the initial state, and the ends of orderings
 * (errors filled red); edges labelled with their first delivery.  Returns
 * false with errno set when the file cannot be written. */
bool sg_graph_write_dot(const char *path, GArray *edges);

#endif
