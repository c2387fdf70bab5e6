/*
 * procstate.h - what a process has of its own in the C library, kept per
 * rank (internal to the scheduler).
 *
 * Every rank runs in ordex's one process, but a program counts on the C
 * library's process-wide state being its own: getopt's position, the
 * environment, the rand() and drand48() sequences, strtok's position, its
 * pid, its signal dispositions, mask and alternate stack.  Each rank keeps
 * that state in a sched_procstate allocated in its own heap arena, so that
 * exploration's state hash and both kinds of snapshot cover it like the
 * rest of the rank's memory (a rank's rand() state decides its future: two
 * states that differ only there must not be merged).
 *
 * Two mechanisms give a rank its own copy:
 *  - the C library's globals that programs read directly (optind, optarg,
 *    opterr, optopt, environ) are switched with the rank at every context
 *    switch (sched_ps_switch_in/out), as stdout and stderr are;
 *  - functions that keep hidden state are defined by ordex, which exports
 *    them to programs (cli/exports.lds): rand, strtok, setenv, getpid, fork,
 *    sigaction, ... (procstate.c, signals.c).  They act on the running rank's
 *    state when rank code calls them, and go on to the C library's own
 *    definition when ordex calls them (no rank running, or ordex's code
 *    running on a rank's behalf).
 */
#ifndef ORDEX_SCHED_PROCSTATE_H
#define ORDEX_SCHED_PROCSTATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <ucontext.h>
#include <unistd.h>

#include "scheduler/arena.h"
#include "scheduler/sched.h"

/* Signals whose disposition ordex keeps per rank and never hands to the
 * kernel: the faults ordex reports as crashes, SIGPROF (the step timeout's
 * tick), SIGINT and SIGTERM (which end ordex's run). */
#define SCHED_NVSIG 10

/* One rank's disposition of one of those signals, as sigaction set it. */
typedef struct sched_sigact {
    void *handler; /* SIG_DFL, SIG_IGN or the function */
    uint64_t mask; /* sa_mask: bit sig - 1 */
    int flags;     /* sa_flags */
} sched_sigact;

typedef struct sched_sigframe sched_sigframe; /* a program's handler running (signals.c) */

typedef struct sched_procstate {
    int rank;
    /* getopt: the C library's globals while the rank is switched out. */
    char *optarg;
    int optind, opterr, optopt;
    bool getopt_used; /* the rank called getopt since it started */
    /* The environment: environ while the rank is switched out.  env_own is
     * the array that the rank's setenv family changes (in the rank's heap);
     * until the rank changes anything, environ is a copy of ordex's
     * environment shared by every rank, never written. */
    char **environ;
    char **env_own;
    size_t env_cap;
    char *strtok_pos;
    bool rand_ready; /* rand set up as in a new process (seed 1), on first use */
    struct random_data rand;
    int32_t rand_tbl[32];
    struct drand48_data drand; /* all zero: unseeded, as in a new process */
    /* Signals (signals.c). */
    sched_sigact act[SCHED_NVSIG];
    uint64_t blocked;      /* the signal mask as the rank sees it: bit sig - 1 */
    uint64_t pending;      /* signals it sent itself while they were blocked */
    uint64_t left_blocked; /* blocked by a handler that was left with longjmp */
    void *alt_sp;          /* its alternate signal stack (sigaltstack) */
    size_t alt_size;
    int alt_flags;
    sched_sigframe *frame; /* innermost of its handlers running for a signal */
    int raising;           /* signal it is sending itself with raise() or kill() */
    uint64_t repeat_key;   /* the last fault after which its handler returned */
    int repeat_count;      /* how many times in a row */
    char note[256];        /* sched_fault.note of its crash */
} sched_procstate;

/* Pids of ranks: rank r is SCHED_RANK_PID_BASE + r.  Above the largest pid
 * Linux hands out (2^22), so that no real process has one. */
#define SCHED_RANK_PID_BASE 5000000

/* The running rank's state when rank code runs (not ordex's code on its
 * behalf), else NULL.  Defined in sched.c. */
sched_procstate *sched_ps_running(void);

/* The next definition of function `name` after ordex's (the C library's);
 * ends the process if there is none. */
void *sched_ps_next(const char *name);

/* real_NAME, looked up on first use: the C library's own NAME. */
#define SCHED_NEXT(fn)                                                                             \
    ({                                                                                             \
        if (!real_##fn)                                                                            \
            real_##fn = (__typeof__(real_##fn))sched_ps_next(#fn);                                 \
        real_##fn;                                                                                 \
    })

/* Resolves the C library's own definitions of the functions that ordex
 * replaces; call before any rank runs (a signal handler must not be the
 * first to look one up). */
void sched_ps_resolve(void);

/* Sets ps up as a new process has it, in arena `a` of rank `rank`:
 * environment env (not copied), signal mask `mask`. */
sched_procstate *sched_ps_new(sched_arena *a, int rank, char **env, uint64_t mask);

/* A copy of the array of the process's environment (strings shared), which
 * ranks start from; free with g_free. */
char **sched_ps_env_snapshot(void);

/* getopt's owner (the rank whose parse the C library's hidden position
 * follows) is nobody again: a new run starts. */
void sched_ps_reset(void);

/* ordex's own environ while a rank runs. */
extern char **sched_ps_outer_environ;

/* The C library globals that a switch moves, as the rank last left them.
 * The scheduler keeps a copy of them beside its own record of the rank
 * (dense, in cache), so that a switch need not touch the procstate, which
 * lies in the rank's arena: with many ranks that is a page the TLB no
 * longer holds, one per switch.  The procstate stays the copy that state
 * hashing and snapshots see: it is written whenever the rank changed one
 * of them. */
typedef struct sched_ps_globals {
    char *optarg;
    int optind, opterr, optopt;
    char **environ;
} sched_ps_globals;

/* The globals as ps holds them (for a rank's first switch). */
static inline sched_ps_globals sched_ps_globals_of(const sched_procstate *ps) {
    return (sched_ps_globals){ps->optarg, ps->optind, ps->opterr, ps->optopt, ps->environ};
}

/* Puts the rank's C library globals in place as it is switched in (g: the
 * copy, equal to ps's), and saves them as it is switched out (into g, and
 * into ps if the rank changed any). */
static inline void sched_ps_switch_in(const sched_ps_globals *g) {
    optarg = g->optarg;
    optind = g->optind;
    opterr = g->opterr;
    optopt = g->optopt;
    sched_ps_outer_environ = environ;
    environ = g->environ;
}

static inline void sched_ps_switch_out(sched_procstate *ps, sched_ps_globals *g) {
    if (G_UNLIKELY(optarg != g->optarg || optind != g->optind || opterr != g->opterr ||
                   optopt != g->optopt || environ != g->environ)) {
        *g = (sched_ps_globals){optarg, optind, opterr, optopt, environ};
        ps->optarg = g->optarg;
        ps->optind = g->optind;
        ps->opterr = g->opterr;
        ps->optopt = g->optopt;
        ps->environ = g->environ;
    }
    environ = sched_ps_outer_environ;
}

/* ---- for the forked child (sched.c) ---- */

/* Called in a child just made by fork() from rank code. */
void sched_become_forked_child(void);

/* The real _exit. */
_Noreturn void sched_real_exit(int code);

/* ---- signals (signals.c) ---- */

/* The signal mask of the calling thread as bits (bit sig - 1). */
uint64_t sched_sig_mask_now(void);

/* What on_fault does with a signal of the running rank's own code. */
typedef enum sched_sig_result {
    SCHED_SIG_DONE,  /* ignored, kept pending, or the program's handler runs next */
    SCHED_SIG_FATAL, /* the rank ends: a crash */
} sched_sig_result;

/* Size of sched_procstate.note. */
#define SCHED_NOTE_LEN sizeof(((sched_procstate *)0)->note)

/* Decides what the rank's dispositions make of signal sig that interrupted
 * its code at context uc: ignore it, keep it pending, or run the program's
 * handler (uc is changed so that returning from the signal handler enters
 * it on the rank's stack, or on the rank's alternate stack), or a crash.
 * overflow: the fault hit the stack's guard page.  The rank's stack is
 * [stack_lo, stack_hi).  For a crash, note (SCHED_NOTE_LEN bytes) says what
 * the program's own handling had to do with it (or is empty), and *orig is
 * the fault that a
 * handler of the program was running for when the crash came (NULL if
 * none): that first fault is the one to report. */
sched_sig_result sched_sig_deliver(sched_procstate *ps, int sig, siginfo_t *si, ucontext_t *uc,
                                   bool overflow, uintptr_t stack_lo, uintptr_t stack_hi,
                                   char *note, const sched_fault **orig);

/* The fault that the innermost handler of the rank still running (its frame
 * lies above the stack pointer sp on the same stack) was entered for, or
 * NULL.  Frames left by longjmp are forgotten first. */
const sched_fault *sched_sig_live_fault(sched_procstate *ps, uintptr_t sp);

/* The C library's sigaltstack and pthread_sigmask, for ordex's own use on
 * a rank's thread (a thread starting up must not pass for the rank). */
int sched_real_sigaltstack(const stack_t *ss, stack_t *oss);
int sched_real_sigmask(int how, const sigset_t *set, sigset_t *oset);

/* Unblocks sig in the real mask (from ordex's signal handlers, which a
 * rank's view of the mask must not see). */
void sched_sig_unblock(int sig);

/* Ends the calling process by signal sig with its default action, as the
 * kernel would have (for ordex's own faults and the forked child's). */
void sched_sig_die(int sig);

/* "SIGSEGV" for SIGSEGV. */
const char *sched_sig_name(int sig, char buf[16]);

/* Records in *f the fault sig at context uctx: address, pc, backtrace
 * (sched.c; async-signal-safe enough for a fault handler). */
void sched_record_fault(sched_fault *f, int sig, siginfo_t *si, void *uctx);

/* Ends the running rank as failed with *f (from rank code). */
_Noreturn void sched_fail_current(const sched_fault *f);

#endif
