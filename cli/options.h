/*
 * options.h - the options shared by the commands that run a program.
 */
#ifndef ORDEX_CLI_OPTIONS_H
#define ORDEX_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stategraph/rundesc.h"
#include "stategraph/verdict.h"

typedef struct ordex_opts {
    /* The program, its ranks and everything that decides how it runs: filled
     * from -n, --seed, --send-mode, --eager-limit, --stack-size, --heap-size,
     * --step-timeout, --tag-output, --threads, --async-progress,
     * --early-collectives and --no-test-later.  run.argv[0] is the program as
     * the user named it; run.so is left to the command. */
    sg_rundesc run;
    bool send_mode_given;
    bool quiet;
    char *json;
    sg_leaks
        leaks; /* --leaks: handles never freed are warnings (default), errors or not reported */
    /* explore */
    bool no_por;
    uint64_t max_states;
    double max_time;
    size_t max_memory;
    sg_divergence divergence;
    char *trace_dir;
    char *strategy;
    int runs;
    int branches;     /* --strategy=dfs-branches: departures per path (default 2) */
    int jobs;         /* explore: processes exploring at once (0: not given) */
    bool distributed; /* explore: one exploration over the processes of an MPI job */
    char *checkpoint;
    char *graph;
    char *json_progress; /* explore: progress as JSON lines to this file */
    /* predict */
    char *platform;
    char **sets;   /* "section.key=value", NULL-terminated, or NULL */
    char **sweeps; /* "key=v1,v2,...", NULL-terminated, or NULL */
    char *trace_json;
    char *svg;
    bool no_timeline;
    bool ignore_compute; /* only ordex_compute is computation */
    int placements;      /* random placements of polling ranks sharing cores; 0: none */
    char **args;         /* what run.argv points into */
} ordex_opts;

/* Parses `ordex <cmd> [options] PROGRAM [ARGS...]`: options end at the first
 * argument that is not an option (the program) or at "--"; the program and
 * its arguments go to o->run.argc and o->run.argv.  `-np N` is taken for
 * `-n N`, as mpirun spells it.  Returns 0, or 2 after printing one line
 * about the problem; ordex_opts_free is due either way. */
int ordex_parse_common(int argc, char **argv, const char *cmd, ordex_opts *o);
void ordex_opts_free(ordex_opts *o);

/* Reads `text`, the value of the size option `option` of `ordex cmd`, into
 * *out: a size as perfmodel/units.h reads it ("65536", "64KiB", "64k") from
 * min to max bytes.  Otherwise prints one line naming the command, the
 * option, the value and the problem, leaves *out alone and returns false
 * (the caller exits with status 2). */
bool ordex_size_option(const char *cmd, const char *option, const char *text, uint64_t min,
                       uint64_t max, size_t *out);

#endif
