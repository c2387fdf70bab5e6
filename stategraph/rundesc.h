/*
 * rundesc.h - the run description: everything that decides how a simulated
 * execution of a program goes, in one place.
 *
 * `ordex run`, `explore`, `predict` and `replay` all load the same program
 * into the scheduler and create the same simulator; the run description is
 * the one struct they fill (the command line for the first three, a trace
 * file for replay) and the one place that turns it into the scheduler's
 * options and the simulator's configuration.  Traces record every field that
 * changes what a rank can do (trace.h), so that a replay runs the program
 * exactly as it was explored: with the same heap, stack and step timeout.
 *
 * Strings and argv are borrowed: the description never frees them.
 */
#ifndef ORDEX_SG_RUNDESC_H
#define ORDEX_SG_RUNDESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scheduler/loader.h"
#include "scheduler/sched.h"
#include "simulator/sim.h"

/* The defaults of the command line, of traces that predate a field, and of
 * the README. */
#define SG_RUN_DEFAULT_STACK ((size_t)8 << 20)
#define SG_RUN_DEFAULT_HEAP ((size_t)1 << 30)
#define SG_RUN_DEFAULT_EAGER_LIMIT ((size_t)65536)
#define SG_RUN_DEFAULT_STEP_TIMEOUT 10.0

/* The symbol ordexcc links into every program it builds and its value: the
 * loader refuses a shared object without them (scheduler/loader.h). */
#define SG_PROGRAM_MARKER SCHED_PROGRAM_MARKER
#define SG_PROGRAM_ABI SCHED_PROGRAM_ABI

typedef struct sg_rundesc {
    const char *so; /* the shared object to load */
    int nranks;
    int argc;    /* program arguments, argv[0] included */
    char **argv; /* NULL-terminated */

    /* What each rank gets. */
    size_t stack_size;
    size_t heap_size;
    double step_timeout_s; /* CPU seconds between MPI calls; 0 = no limit */

    /* How MPI behaves. */
    uint64_t seed; /* 0: deterministic schedule */
    sim_send_mode send_mode;
    size_t eager_limit;     /* bytes; auto mode buffers standard sends below it */
    bool exploring;         /* simulated time does not follow the wall clock */
    bool async_progress;    /* messages may land in posted receives while the receiver computes */
    bool early_collectives; /* members that may leave a collective early can */
    bool test_later;        /* MPI_Test/MPI_Iprobe that could succeed may say "not yet" */
    bool rma_separate;      /* RMA windows follow the separate memory model */
    bool no_buffer_checks;  /* buffers are not checked against their memory objects */
    sim_type_check type_check; /* C types that disagree with a buffer's datatype */

    /* How the ranks are run (no effect on what they compute). */
    bool tag_output;         /* prefix forwarded output lines with "[rank] " */
    bool threads;            /* each rank an OS thread named "rank N" (for debuggers) */
    bool keep_files;         /* program copies in files a debugger can read */
    FILE *out, *err;         /* where rank output goes */
    bool reuse_freed_memory; /* keep freed memory for message payloads (run, predict;
                                never explore, whose heap every snapshot copies) */
} sg_rundesc;

/* Fills *d with the defaults: nothing to load yet, auto send mode, the
 * default sizes and step timeout, output to stdout and stderr. */
void sg_rundesc_init(sg_rundesc *d);

/* --type-check: "error", "warn" or "off" (false for anything else), and
 * back. */
bool sg_type_check_parse(const char *text, sim_type_check *out);
const char *sg_type_check_name(sim_type_check mode);

/* The scheduler's options for d. */
void sg_rundesc_sched_options(const sg_rundesc *d, sched_options *so);

/* The simulator's configuration for d. */
void sg_rundesc_sim_config(const sg_rundesc *d, sim_config *cfg);

/* Loads d->nranks copies of d->so into the scheduler.  On failure returns
 * false with *why set (g_free) to one line about the problem, naming the
 * program as the user named it (argv[0]) rather than the cached build it
 * runs; the scheduler is then finished already. */
bool sg_rundesc_load(const sg_rundesc *d, char **why);

/* Stops the run of the program loaded by sg_rundesc_load (run, replay,
 * predict) because of signal `sig`: within a tick of the scheduler's timer
 * (0.25 s of CPU time) the running rank ends as interrupted (not a finding)
 * and the run loop returns SCHED_RUN_STOPPED; later runs of this process
 * stop at once.  Async-signal-safe, for a SIGINT/SIGTERM handler.
 * Exploration has its own (sg_explore_interrupt). */
void sg_run_interrupt(int sig);

/* The first signal given to sg_run_interrupt, or 0. */
int sg_run_interrupted(void);

/* "eager", "rendezvous" or "auto", as options and traces spell it. */
const char *sg_send_mode_name(sim_send_mode m);

/* The mode a name spells; false when it spells none. */
bool sg_send_mode_parse(const char *name, sim_send_mode *m);

#endif
