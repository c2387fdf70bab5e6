/*
 * options.h - the options shared by the commands that run a program.
 */
#ifndef ORDEX_CLI_OPTIONS_H
#define ORDEX_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simulator/sim.h"

typedef struct ordex_opts {
    int nranks;
    bool tag_output;
    uint64_t seed;
    sim_send_mode send_mode;
    size_t eager_limit;
    size_t stack_size;
    size_t heap_size;
    double step_timeout;
    bool quiet;
    char *json;
    bool send_mode_given;
    bool threads; /* run: one OS thread per rank (for debuggers) */
    /* explore */
    bool no_por;
    bool async_progress;
    bool early_collectives;
    uint64_t max_states;
    double max_time;
    size_t max_memory;
    int divergence; /* 0 ignore, 1 warn, 2 error */
    char *trace_dir;
    char *strategy;
    int runs;
    int branches;       /* --strategy=dfs-branches: departures per path (default 2) */
    int jobs;           /* explore: processes exploring at once (default 1) */
    bool no_test_later; /* MPI_Test/MPI_Iprobe always succeed when they can */
    char *checkpoint;
    char *graph;
    /* predict */
    char *platform;
    char **sets;   /* "section.key=value", NULL-terminated, or NULL */
    char **sweeps; /* "key=v1,v2,...", NULL-terminated, or NULL */
    char *trace_json;
    char *svg;
    bool no_timeline;
    bool ignore_compute; /* only ordex_compute is computation */
    int placements;      /* random placements of polling ranks sharing cores; 0: none */
} ordex_opts;

/* Parses `ordex <cmd> [options] PROGRAM [ARGS...]`: options end at the first
 * argument that is not an option (the program); its index goes to
 * *prog_index.  Returns 0, or 2 after printing one line about the problem. */
int ordex_parse_common(int argc, char **argv, const char *cmd, ordex_opts *o, int *prog_index);
void ordex_opts_free(ordex_opts *o);

/* Parses "64KiB", "8M", "1048576" into bytes; false when malformed. */
bool ordex_parse_size(const char *text, size_t *out);

#endif
