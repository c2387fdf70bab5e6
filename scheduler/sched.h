/*
 * sched.h - ranks as cooperatively scheduled contexts, and the run loop.
 *
 * Every rank runs the program's main() in its own context inside one OS
 * thread (or, with sched_options.threads, in an OS thread of its own, for
 * debuggers); exactly one rank runs at a time, and it runs until it blocks in an
 * MPI call (sched_block) or ends.  When no rank is ready, the run loop asks
 * the strategy's callback to fire one enabled event (which wakes ranks); when
 * the callback finds none while ranks are still blocked, the run is stuck.
 *
 * The scheduler also gives each rank its own heap (arena.h), its own
 * stdout/stderr streams (swapped in at every switch) and what a process has
 * of its own in the C library: getopt, environment, random numbers, pid,
 * signal dispositions and handlers (procstate.h), and turns a rank's crash,
 * stack overflow, exit() or runaway loop into a recorded end of that rank
 * instead of an end of ordex.
 */
#ifndef ORDEX_SCHED_H
#define ORDEX_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

typedef enum sched_state {
    SCHED_READY,   /* can run */
    SCHED_RUNNING, /* is running */
    SCHED_BLOCKED, /* waits in an MPI call */
    SCHED_DONE,    /* main returned or exit() was called */
    SCHED_FAILED,  /* crashed, overflowed its stack, ran away, or was aborted */
} sched_state;

typedef enum sched_failure {
    SCHED_FAIL_NONE,
    SCHED_FAIL_SIGNAL,         /* SIGSEGV, SIGFPE, SIGABRT, ... */
    SCHED_FAIL_STACK_OVERFLOW, /* fault in the guard page */
    SCHED_FAIL_TIMEOUT,        /* ran longer than the step timeout between MPI calls */
    SCHED_FAIL_ABORTED,        /* MPI_Abort or a fatal MPI error */
    SCHED_FAIL_HEAP,           /* its heap arena is full */
    SCHED_FAIL_INTERRUPTED,    /* stopped by sched_set_interrupt's check: not the rank's fault */
} sched_failure;

#define SCHED_MAX_FRAMES 48

typedef struct sched_fault {
    sched_failure kind;
    int signo;
    int code;                       /* si_code: > 0 a fault the kernel raised, <= 0 a signal
                                     * sent (raise, kill, tgkill, sigqueue) */
    void *addr;                     /* faulting address (meaningful when code > 0) */
    void *pc;                       /* instruction that faulted (or was running) */
    void *frames[SCHED_MAX_FRAMES]; /* backtrace at the fault */
    int nframes;
    /* What the program's own signal handling had to do with it, for the
     * report ("the program's own SIGSEGV handler ran, then ..."), or NULL.
     * The text lives as long as the rank's heap. */
    const char *note;
} sched_fault;

typedef struct sched_options {
    int nranks;
    size_t stack_size;     /* per rank */
    size_t heap_size;      /* per rank arena */
    bool tag_output;       /* prefix forwarded lines with "[rank] " */
    uint64_t seed;         /* 0: ready ranks run in FIFO order; else random */
    double step_timeout_s; /* CPU seconds a rank may run between MPI calls; 0 = none */
    bool keep_files;       /* a debugger watches the loading (gdb; see loader.h) */
    const char *program;   /* path of the .so */
    int argc;              /* program arguments, argv[0] included */
    char **argv;
    FILE *out, *err; /* where rank output is forwarded */
    bool threads;    /* run each rank in an OS thread named "rank N", one at a
                        time (for debuggers; not fork-safe), instead of fibers */
} sched_options;

/* Loads nranks copies of the program and prepares their contexts.
 * Returns false with *err (g_free) set on failure. */
bool sched_init(const sched_options *opt, char **err);
void sched_fini(void);

/* Call in the child after fork(): restarts what threads did (the watchdog). */
void sched_after_fork(void);

/* True in a process that a rank made with fork() or vfork(): a process of
 * its own that runs that rank's code, never the scheduler.  It ends when
 * the rank's code returns from main or calls exit (with that status, after
 * forwarding its output), or dies of a signal as a process would. */
extern bool sched_forked_child;

/* Ends such a child at its MPI call fname at `where` (MPI belongs to the
 * rank that forked it): one line on stderr, status 1. */
_Noreturn void sched_forked_child_mpi(const char *fname, const char *where);

/* The pid that getpid() returns in rank code: 5000000 + rank, the
 * same in every run, above any pid Linux hands out (SCHED_RANK_PID_BASE). */
int sched_rank_pid(int rank);

int sched_nranks(void);

/* From rank code: parks the running rank until sched_wake.  Returns at once
 * (without switching) if the rank was woken in between. */
void sched_block(void);

/* Makes a blocked rank ready again (no effect on other states). */
void sched_wake(int rank);

/* From rank code: ends the running rank as if main had returned code. */
_Noreturn void sched_exit_current(int code);

/* From rank code: ends the running rank as failed (kind ABORTED) and stops the
 * run.  The caller has recorded why. */
_Noreturn void sched_abort_current(void);

/* Makes sched_run return SCHED_RUN_STOPPED after the running rank (if any)
 * next switches out. */
void sched_request_stop(void);

/* Undoes sched_request_stop, so that a stopped run can go on with another
 * sched_run (a replay under gdb stops before every step). */
void sched_clear_stop(void);

/* The running rank, -1 while the scheduler runs; updated at every switch.
 * Exported from the ordex executable for debuggers' breakpoint conditions. */
extern int ordex_rank;

/* The running rank, or -1 when the scheduler itself runs.  Inline: every
 * MPI call asks it several times. */
static inline int sched_current(void) {
    return ordex_rank;
}

typedef enum sched_run_result {
    SCHED_RUN_COMPLETE, /* every rank ended */
    SCHED_RUN_STUCK,    /* some rank blocked and no event enabled */
    SCHED_RUN_STOPPED,  /* sched_request_stop, a failed rank, or a fault */
} sched_run_result;

/* Fires one enabled event; returns false when there is none. */
typedef bool (*sched_choose_fn)(void *user);

/* Runs ranks until all ended, the run is stuck, or it is stopped. */
sched_run_result sched_run(sched_choose_fn choose, void *user);

sched_state sched_rank_state(int rank);
int sched_rank_exit_code(int rank);
const sched_fault *sched_rank_fault(int rank);

/* Called (in scheduler context) when a rank ends normally, with its code. */
typedef void (*sched_exit_hook)(int rank, int code);
void sched_set_exit_hook(sched_exit_hook hook);

/* Called (in scheduler context) when a rank fails; stops the run unless it returns false. */
typedef bool (*sched_fail_hook)(int rank, const sched_fault *fault);
void sched_set_fail_hook(sched_fail_hook hook);

/* Heap switching around simulator code running on a rank's behalf. */
void sched_enter_sim(void);
void sched_leave_sim(void);

/* Runs fn(arg) in scheduler context, turning a memory fault inside it (a bad
 * buffer passed to MPI) into a false return with *fault filled. */
bool sched_protected(void (*fn)(void *), void *arg, sched_fault *fault);

/* Load bias of rank's program copy (address = bias + file address), and the
 * program path; used to symbolise code addresses. */
uintptr_t sched_image_bias(int rank);
const char *sched_program_path(void);

/* A span of a rank's memory. */
typedef struct sched_region {
    const void *start;
    size_t len;
} sched_region;

/* Appends to out (an array of sched_region) the memory that is the state of
 * the rank's program: its globals, the used part of its heap arena and its
 * live stack from stack_from (the program's stack pointer when it entered
 * MPI) to the top.  Call only while the rank is not running. */
void sched_rank_regions(int rank, const void *stack_from, GArray *out);

/* Appends to out (an array of sched_region) the writable segments of the
 * rank's copy of the program and of its copies of the program's own
 * libraries: its globals and statics.  Every rank has the same segments, of
 * the same sizes, in the same order (they come from the same files), so the
 * k-th segment of one rank corresponds byte for byte to the k-th of another.
 * May be called at any time after sched_init. */
void sched_rank_globals(int rank, GArray *out);

/* When the rank last ran: a value that changes every time it is switched
 * in, and differs from every value of any other rank or earlier sched_init
 * in this process.  Memory of the rank that the simulator does not write
 * (sim_rank_touched) is unchanged while this stays the same. */
uint64_t sched_rank_last_run(int rank);

/* The rank's stack mapping, [*lo, *hi), and in *sp the stack pointer its
 * fiber saved when it last switched away: everything live on the stack lies
 * at or above it.  *sp is 0 when that is not known: the rank is running, it
 * runs on an OS thread of its own, or it parked on the signal stack after a
 * fault.  False when the rank has no stack. */
bool sched_rank_stack(int rank, uintptr_t *lo, uintptr_t *hi, uintptr_t *sp);

/* Running hash of everything the rank wrote to stdout, and its byte count. */
uint32_t sched_rank_output_hash(int rank);

/* Discards rank output instead of forwarding it (exploration runs many
 * executions); hashes are still kept. */
void sched_discard_output(bool discard);

/* Flushes every rank's partial output lines. */
void sched_flush_output(void);

/* A check that the run must stop now (a time limit, a signal to ordex).
 * It is called from a signal handler on every tick of the profiling timer
 * (every 0.25 s of the process's CPU time), so it must be async-signal-safe.
 * When it returns true, the run stops: a rank running its own code ends at
 * once, one inside an MPI call when it leaves it, with the failure kind
 * SCHED_FAIL_INTERRUPTED (no fail hook is called), and sched_run returns
 * SCHED_RUN_STOPPED.  NULL removes the check; sched_init removes it too, so
 * set it after sched_init.  A process forked after this keeps it. */
typedef bool (*sched_interrupt_fn)(void);
void sched_set_interrupt(sched_interrupt_fn check);

/* Whether the check above stopped a run since sched_init. */
bool sched_interrupted(void);

/* The step timeout in force (CPU seconds; 0 = none). */
double sched_step_timeout(void);

/* Number of context switches into ranks so far. */
uint64_t sched_switches(void);

#endif
