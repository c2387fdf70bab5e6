/*
 * trace.h - trace files: one explored ordering, written so that a person can
 * read it and `ordex replay` can follow it.
 *
 * Format (version 3), line oriented, '#' starts a comment:
 *
 *   ordex-trace 3
 *   program <path of the program as given>
 *   program-sha256 <hex digest of the loaded .so>
 *   ranks <N>
 *   args <arguments, shell-quoted, may be empty>
 *   send-mode <eager|rendezvous|auto>
 *   eager-limit <bytes>
 *   async-progress <yes|no>      (optional; no when absent)
 *   early-collectives <yes|no>   (optional; no when absent)
 *   test-later <yes|no>          (optional; no when absent: traces made before
 *                                 MPI_Test/MPI_Iprobe could say "not yet")
 *   stack-size <bytes>           (version 2; 8MiB in version 1)
 *   heap-size <bytes>            (version 2; 1GiB in version 1)
 *   step-timeout <seconds>       (version 2; 10 in version 1; 0 = none)
 *   ordex-version <version>
 *   finding <kind> <location or -> <message>
 *   step <n> <kind> dst=<rank> src=<rank> tag=<t> comm=<id> choice=<k>/<of> at=<file:line>
 * from=<file:line>
 *   ...
 *   end <number of steps>
 *   checksum <hex SHA-256 of every byte before this line> (version 3)
 *
 * kind is deliver, probe, collective, resume (a rank paused after an MPI call
 * goes on before more messages land in its posted receives), lock (rank dst
 * gets the lock of type tag, 1 exclusive or 0 shared, on rank src of the
 * window whose communicator is comm; src -1: the shared locks of
 * MPI_Win_lock_all on every rank) or choice (a
 * choice inside an MPI call such as MPI_Waitany; `call` names it).  choice k/of says which of
 * the `of` alternatives the ordering took at that step (1 = no choice).
 * Every header line appears at most once.  A step's ranks are below the
 * ranks line's count, and its numbers fit an int (-1 where a kind has no
 * such value: the src and tag of a collective).  The checksum makes any
 * edit of a version 3 trace a refusal.  Versions 1 (without the sizes and
 * the step timeout, which were then always the defaults) and 2 (without
 * the checksum) are still read.
 */
#ifndef ORDEX_SG_TRACE_H
#define ORDEX_SG_TRACE_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

#include "stategraph/explore.h"
#include "stategraph/rundesc.h"

#define ORDEX_VERSION "0.1.0"

/* The trace format written (earlier ones are read too). */
#define SG_TRACE_FORMAT 3

typedef struct sg_trace_header {
    const char *program;   /* as the user named it */
    const char *so_path;   /* the loaded shared object (digested) */
    const sg_rundesc *run; /* ranks, arguments after argv[0], sizes, MPI behaviour */
} sg_trace_header;

/* Names the program whose file offsets steps hold (for file:line). */
void sg_trace_set_program(const char *so_path);

/* A step as people read it, whether it comes from an exploration (sg_step,
 * whose call sites are file offsets) or from a trace file (sg_trace_step,
 * whose call sites are file:line already). */
typedef struct sg_step_view {
    int kind; /* sim_event_kind or SG_STEP_CHOICE */
    int dst, src, tag, comm;
    const char *what;      /* collective or call name ("MPI_Iprobe:now-or-later"), or NULL */
    const char *at, *from; /* the receiving (or choosing) and the sending call: file:line */
    int choice, nalts;     /* 0-based alternative taken, of how many */
} sg_step_view;

/* One line describing a step for people ("rank 0 receives from rank 2 ..."). */
char *sg_step_describe(const sg_step_view *v);

/* sg_step_describe of an explored step (call sites symbolised). */
char *sg_step_text(const sg_step *st);

/* Writes a trace file; returns false with errno set on failure. */
bool sg_trace_write(const char *path, const sg_trace_header *h, const char *finding_kind,
                    const char *location, const char *message, GArray *path_steps);

/* A trace file read back. */
typedef struct sg_trace_step {
    int kind; /* sim_event_kind or SG_STEP_CHOICE */
    int dst, src, tag, comm;
    int choice, nalts; /* 1-based choice as written */
    char *at, *from, *call;
    int line; /* line in the trace file */
} sg_trace_step;

typedef struct sg_trace {
    char *path;
    char *program, *sha256, *send_mode, *version;
    int nranks;
    char **args; /* NULL-terminated */
    size_t eager_limit;
    bool async_progress;
    bool early_collectives;
    bool test_later;
    bool rma_separate;         /* "rma-model separate" (absent: unified) */
    bool buffer_checks;        /* "buffer-checks on" (absent: off, as before the checks) */
    sim_type_check type_check; /* "type-check MODE" (absent: off) */
    size_t stack_size, heap_size;
    double step_timeout_s;
    char *finding;          /* the finding line's text, or NULL */
    char *finding_kind;     /* its first word (sim_finding_kind_name), or NULL */
    char *finding_location; /* its second ("file:line"), NULL for "-" */
    GArray *steps;          /* sg_trace_step */
} sg_trace;

/* The view of a step read back from a trace (its strings are st's). */
void sg_trace_step_view(const sg_trace_step *st, sg_step_view *v);

/* The largest trace file read (traces of a million steps stay well below). */
#define SG_TRACE_MAX_BYTES ((size_t)1 << 30)

/* Reads a trace file (a regular file: a FIFO or a device is refused).  On failure returns false
 * with *err set (g_free) to one line naming the file, the line and the problem. */
bool sg_trace_read(const char *path, sg_trace *t, char **err);
void sg_trace_free(sg_trace *t);

/* The run a trace describes: d gets t's ranks, sizes, step timeout and MPI
 * behaviour (exploring, as when the trace was made), with argv (g_free; its
 * strings are t's) holding the program and its arguments.  The shared object
 * (d->so) and the output streams are left to the caller. */
void sg_trace_rundesc(const sg_trace *t, sg_rundesc *d);

/* NULL when the findings of a replay of t (sim_finding *) include the one t
 * was recorded for (its kind, at its location), or t names none that one
 * ordering shows (none, or a message race); else why not, one line (g_free). */
char *sg_trace_unreproduced(const sg_trace *t, GPtrArray *findings);

/* Hex SHA-256 of a file's content (g_free), "unknown" when unreadable. */
char *sg_file_sha256(const char *path);

#endif
