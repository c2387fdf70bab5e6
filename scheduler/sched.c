/*
 * sched.c - rank contexts, switching, the run loop, and rank failures.
 */
#define _GNU_SOURCE
#include "scheduler/sched.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <glib.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "scheduler/access_hook.h"
#include "scheduler/access_sites.h"
#include "scheduler/arena.h"
#include "scheduler/context.h"
#include "scheduler/loader.h"
#include "scheduler/procstate.h"
#include "scheduler/rankio.h"

typedef struct sched_rank {
    int id;
    sched_state state;
    sched_ctx ctx;
    sched_image img;
    int sim_depth;     /* > 0 while simulator code runs on the rank's behalf */
    bool woken;        /* woken while still running: do not park */
    uint64_t last_run; /* g_run_clock when the rank was last switched in (or made) */
    int exit_code;
    sched_fault fault;
    rankio_stream io;
    char **argv;
    sched_procstate *ps;   /* the C library's process state of the rank, in its arena */
    sched_ps_globals libc; /* ps's C library globals, read at every switch into the rank */
} sched_rank;

static sched_options g_opt;
static sched_rank *g_ranks;
static int g_nranks;
static sched_ctx g_main_ctx;  /* the scheduler's own context */
static sched_rank *g_current; /* running rank or NULL */
static bool g_stop;
static int g_nblocked; /* ranks in SCHED_BLOCKED */
static sched_exit_hook g_exit_hook;
static sched_fail_hook g_fail_hook;
static FILE *g_real_stdout, *g_real_stderr;
static GRand *g_rng;
static char *g_program;
static char **g_env_start; /* the environment every rank starts with */

bool sched_forked_child;

/* Ready queue: a ring of rank ids; each rank is in it at most once. */
static int *g_ready;
static int g_ready_head, g_ready_len;

/* Runaway ranks: a profiling timer ticks on process CPU time; a rank that is
 * still running its same step after step_timeout seconds of ticks has run away.
 * (A timer, not a thread: it costs nothing per switch, and snapshots made by
 * fork() get it back with one call.) */
#define TICK_S 0.25
static volatile uint64_t g_epoch; /* bumped on every switch into or out of a rank */
/* Never reset, not even by sched_init: a rank's last_run then names one
 * stretch of its execution in this process. */
static uint64_t g_run_clock;
static uint64_t g_tick_epoch;
static int g_ticks;
static bool g_timer_on;
/* The check that stops a run (sched_set_interrupt), and whether it did. */
static sched_interrupt_fn g_interrupt;
static volatile sig_atomic_t g_interrupted;

/* Fault recovery for sched_protected. */
static sigjmp_buf *g_protect_jmp;
static sched_fault *g_protect_fault;

static char *g_altstack;

/* The ranks' calls of the load and store hooks are armed (access_sites.h),
 * and whether arming one failed. */
static bool g_access_armed, g_access_arm_failed;

/* The running rank, -1 while the scheduler runs: a plain global of the
 * executable so that a debugger can test it in breakpoint conditions
 * (`break prog.c:42 if ordex_rank == 1`). */
int ordex_rank = -1;

/* Slot i of the ready ring (i < 2 * g_nranks): no division per switch. */
static inline int *ready_slot(int i) {
    return &g_ready[i >= g_nranks ? i - g_nranks : i];
}

static void ready_push(int id) {
    *ready_slot(g_ready_head + g_ready_len) = id;
    g_ready_len++;
}

static int ready_pop(void) {
    if (g_rng && g_ready_len > 1) {
        int k = g_rand_int_range(g_rng, 0, g_ready_len);
        int *slot = ready_slot(g_ready_head + k);
        int t = *slot;
        *slot = g_ready[g_ready_head];
        g_ready[g_ready_head] = t;
    }
    int id = g_ready[g_ready_head];
    g_ready_head = g_ready_head + 1 == g_nranks ? 0 : g_ready_head + 1;
    g_ready_len--;
    return id;
}

double sched_step_timeout(void) {
    return g_opt.step_timeout_s;
}

int sched_nranks(void) {
    return g_nranks;
}
uint64_t sched_switches(void) {
    return g_epoch / 2;
}
const char *sched_program_path(void) {
    return g_program;
}
uintptr_t sched_image_bias(int rank) {
    return g_ranks[rank].img.base;
}
sched_state sched_rank_state(int rank) {
    return g_ranks[rank].state;
}
int sched_rank_exit_code(int rank) {
    return g_ranks[rank].exit_code;
}
const sched_fault *sched_rank_fault(int rank) {
    return &g_ranks[rank].fault;
}
void sched_set_exit_hook(sched_exit_hook hook) {
    g_exit_hook = hook;
}
void sched_set_fail_hook(sched_fail_hook hook) {
    g_fail_hook = hook;
}
void sched_request_stop(void) {
    g_stop = true;
}
void sched_clear_stop(void) {
    g_stop = false;
}

/* Switches from the running rank back to the scheduler. */
static void switch_out(void) {
    sched_rank *r = g_current;
    if (sched_forked_child) /* never run the scheduler a second time */
        sched_real_exit(1);
    sched_ps_switch_out(r->ps, &r->libc);
    g_current = NULL;
    ordex_rank = -1;
    sched_arena_current = NULL;
    stdout = g_real_stdout;
    stderr = g_real_stderr;
    g_epoch++;
    sched_ctx_switch(&r->ctx, &g_main_ctx);
}

/* Resumes rank r from the scheduler. */
static void switch_in(sched_rank *r) {
    g_current = r;
    ordex_rank = r->id;
    r->last_run = ++g_run_clock;
    r->state = SCHED_RUNNING;
    r->woken = false;
    sched_arena_current = r->sim_depth > 0 ? NULL : sched_arena_of(r->id);
    stdout = r->io.out;
    stderr = r->io.err;
    sched_ps_switch_in(&r->libc);
    g_epoch++;
    sched_ctx_switch(&g_main_ctx, &r->ctx);
}

void sched_enter_sim(void) {
    if (!g_current)
        return;
    g_current->sim_depth++;
    sched_arena_current = NULL;
}

static _Noreturn void finish_current(sched_state state);

void sched_leave_sim(void) {
    if (!g_current)
        return;
    if (--g_current->sim_depth == 0) {
        if (g_interrupted) { /* stopped while inside MPI: end here, before its code runs on */
            g_current->fault.kind = SCHED_FAIL_INTERRUPTED;
            g_stop = true;
            finish_current(SCHED_FAILED);
        }
        sched_arena_current = sched_arena_of(g_current->id);
    }
}

void sched_block(void) {
    sched_rank *r = g_current;
    if (r->woken) {
        r->woken = false;
        return;
    }
    r->state = SCHED_BLOCKED;
    g_nblocked++;
    switch_out();
}

void sched_wake(int rank) {
    sched_rank *r = &g_ranks[rank];
    if (r->state == SCHED_BLOCKED) {
        g_nblocked--;
        r->state = SCHED_READY;
        ready_push(rank);
        /* The switch into the rank reads the registers saved on its stack
         * first; with many ranks they are no longer in the cache.  Asking
         * for them now overlaps the miss with what the waking rank still
         * does before it gives up the CPU. */
        __builtin_prefetch(r->ctx.sp);
        __builtin_prefetch((char *)r->ctx.sp + 64);
    } else if (r->state == SCHED_RUNNING) {
        r->woken = true;
    }
}

static _Noreturn void finish_current(sched_state state) {
    sched_rank *r = g_current;
    r->sim_depth = 1; /* whatever runs from here on is ordex's */
    sched_arena_current = NULL;
    if (state == SCHED_DONE)
        rankio_flush(&r->io);
    r->state = state;
    switch_out();
    abort(); /* a finished context is never resumed */
}

_Noreturn void sched_fail_current(const sched_fault *f) {
    sched_rank *r = g_current;
    if (sched_forked_child) { /* dies as a process would */
        rankio_flush(&r->io);
        sched_sig_die(f->signo);
        sched_real_exit(128 + f->signo);
    }
    r->fault = *f;
    finish_current(SCHED_FAILED);
}

/* The fault whose handler (the program's) the running rank is in, or NULL. */
static const sched_fault *in_handler_of(sched_rank *r) {
    return sched_sig_live_fault(r->ps, (uintptr_t)__builtin_frame_address(0));
}

_Noreturn void sched_exit_current(int code) {
    sched_rank *r = g_current;
    if (sched_forked_child) {
        rankio_flush(&r->io);
        sched_real_exit(code);
    }
    /* A rank that exits from its handler for a fault crashed all the same:
     * the fault is what to report. */
    const sched_fault *f = in_handler_of(r);
    if (f) {
        sched_fault rec = *f;
        char name[16];
        snprintf(r->ps->note, SCHED_NOTE_LEN,
                 "the program's own %s handler ran, then the rank exited with status %d",
                 sched_sig_name(f->signo, name), code);
        rec.note = r->ps->note;
        sched_fail_current(&rec);
    }
    r->exit_code = code;
    finish_current(SCHED_DONE);
}

_Noreturn void sched_abort_current(void) {
    sched_rank *r = g_current;
    const sched_fault *f = in_handler_of(r);
    g_stop = true;
    if (f) {
        sched_fault rec = *f;
        char name[16];
        snprintf(r->ps->note, SCHED_NOTE_LEN,
                 "the program's own %s handler ran, then the rank was aborted (MPI_Abort or a "
                 "fatal MPI error)",
                 sched_sig_name(f->signo, name));
        rec.note = r->ps->note;
        sched_fail_current(&rec);
    }
    r->fault.kind = SCHED_FAIL_ABORTED;
    finish_current(SCHED_FAILED);
}

sched_procstate *sched_ps_running(void) {
    sched_rank *r = g_current;
    /* With threads, other threads (a rank's starting up, or ordex's) run
     * ordex's code while a rank runs. */
    return r && r->sim_depth == 0 && sched_ctx_on_thread(&r->ctx) ? r->ps : NULL;
}

void sched_become_forked_child(void) {
    sched_forked_child = true;
}

_Noreturn void sched_forked_child_mpi(const char *fname, const char *where) {
    sched_rank *r = g_current;
    if (r)
        rankio_flush(&r->io);
    dprintf(STDERR_FILENO,
            "ordex: a process that rank %d forked called %s at %s; MPI belongs to the rank, not "
            "to its children: the child ends there with status 1\n",
            r ? r->id : -1, fname, where ? where : "?");
    sched_real_exit(1);
}

static void rank_entry(void *arg) {
    sched_rank *r = arg;
    int code = r->img.main(g_opt.argc, r->argv);
    sched_exit_current(code);
}

/* The C library's exit() for ranks: a rank that exits ends only itself.
 * ordex's own calls (no rank running) go on to the real exit. */
void exit(int code) {
    if (sched_ps_running())
        sched_exit_current(code);
    void (*real_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
    real_exit(code);
    _exit(code);
}

/* ----------------------------------------------------------------------- */
/* Faults                                                                   */

void sched_record_fault(sched_fault *f, int sig, siginfo_t *si, void *uctx) {
    ucontext_t *uc = uctx;
    f->signo = sig;
    f->code = si ? si->si_code : 0;
    f->addr = si ? si->si_addr : NULL;
    f->pc = uc ? (void *)uc->uc_mcontext.gregs[REG_RIP] : NULL;
    f->nframes = backtrace(f->frames, SCHED_MAX_FRAMES);
}

/* sched_sig_deliver's arguments and result, for sched_protected. */
typedef struct deliver_call {
    sched_rank *r;
    int sig;
    siginfo_t *si;
    void *uctx;
    bool overflow;
    sched_sig_result result;
    const sched_fault *first;
} deliver_call;

static void deliver(void *arg) {
    deliver_call *d = arg;
    uintptr_t lo, hi, sp;
    if (!sched_rank_stack(d->r->id, &lo, &hi, &sp))
        lo = hi = 0;
    d->result = sched_sig_deliver(d->r->ps, d->sig, d->si, d->uctx, d->overflow, lo, hi,
                                  d->r->ps->note, &d->first);
}

static void on_fault(int sig, siginfo_t *si, void *uctx) {
    if (g_protect_jmp) {
        memset(g_protect_fault, 0, sizeof *g_protect_fault);
        sched_record_fault(g_protect_fault, sig, si, uctx);
        g_protect_fault->kind = SCHED_FAIL_SIGNAL;
        /* sigsetjmp did not save the mask (that costs a system call per
         * protected call), so unblock the signal by hand. */
        sched_sig_unblock(sig);
        siglongjmp(*g_protect_jmp, 1);
    }
    sched_rank *r = g_current;
    /* With threads, a fault on any thread but the running rank's is ordex's. */
    if (!r || !sched_ctx_on_thread(&r->ctx)) { /* a fault in ordex itself: die the ordinary way */
        sched_sig_die(sig);
        return;
    }
    bool overflow = (sig == SIGSEGV || sig == SIGBUS) && si->si_code > 0 &&
                    sched_ctx_in_guard(&r->ctx, si->si_addr);
    const char *note = NULL;
    const sched_fault *first = NULL;
    if (r->sim_depth == 0) { /* the program's own code: its own dispositions count */
        /* The rank's signal state lies in its heap, where the program may
         * have written over it: a fault while reading it is caught. */
        deliver_call d = {r, sig, si, uctx, overflow, SCHED_SIG_FATAL, NULL};
        sched_fault ignored;
        sched_sig_unblock(SIGSEGV);
        sched_sig_unblock(SIGBUS);
        if (!sched_protected(deliver, &d, &ignored)) {
            snprintf(r->ps->note, SCHED_NOTE_LEN,
                     "ordex could not look at the program's own handling of it: the rank's "
                     "memory that holds it was overwritten");
            d.first = NULL;
        } else if (d.result == SCHED_SIG_DONE) {
            return;
        }
        first = d.first;
        if (r->ps->note[0])
            note = r->ps->note;
    }
    if (sched_forked_child) { /* a process of its own: it dies of the signal */
        sched_sig_die(sig);
        return;
    }
    sched_arena_current = NULL;
    if (first) {
        r->fault = *first;
    } else {
        sched_record_fault(&r->fault, sig, si, uctx);
        r->fault.kind = overflow ? SCHED_FAIL_STACK_OVERFLOW : SCHED_FAIL_SIGNAL;
    }
    r->fault.note = note;
    sched_sig_unblock(sig);
    r->sim_depth = 1;
    r->state = SCHED_FAILED;
    switch_out();
}

static void arm_timer(void) {
    struct itimerval it = {{0, (long)(TICK_S * 1e6)}, {0, (long)(TICK_S * 1e6)}};
    setitimer(ITIMER_PROF, &it, NULL);
}

/* A tick of the profiling timer: ends a rank that has run too long. */
static void on_tick(int sig, siginfo_t *si, void *uctx) {
    sched_rank *r = g_current;
    /* With threads the kernel may hand the tick to a parked thread; only the
     * running rank's own thread can end it (it parks where it stands).  The
     * tick is not lost for good: ticks follow the CPU time of the thread that
     * uses it, which is the running one. */
    if (r && !sched_ctx_on_thread(&r->ctx))
        return;
    if (!g_interrupted && g_interrupt && g_interrupt())
        g_interrupted = 1;
    if (g_interrupted) {
        g_stop = true;
        if (!r || r->sim_depth > 0)
            return; /* the scheduler stops, or the rank ends as it leaves MPI */
        sched_arena_current = NULL;
        r->fault.kind = SCHED_FAIL_INTERRUPTED;
        sched_sig_unblock(sig);
        r->sim_depth = 1;
        r->state = SCHED_FAILED;
        switch_out();
        return;
    }
    if (g_opt.step_timeout_s <= 0)
        return; /* the timer runs for the interrupt check only */
    if (!r || r->sim_depth > 0 || g_epoch != g_tick_epoch) {
        g_tick_epoch = g_epoch;
        g_ticks = 0;
        return;
    }
    if (++g_ticks * TICK_S < g_opt.step_timeout_s)
        return;
    g_ticks = 0;
    sched_arena_current = NULL;
    sched_record_fault(&r->fault, sig, NULL, uctx);
    r->fault.kind = SCHED_FAIL_TIMEOUT;
    sched_sig_unblock(sig);
    r->sim_depth = 1;
    r->state = SCHED_FAILED;
    switch_out();
}

static void install_handlers(void) {
    stack_t ss = {0};
    ss.ss_size = 256 * 1024;
    g_altstack = g_malloc(ss.ss_size);
    ss.ss_sp = g_altstack;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++)
        sigaction(sigs[i], &sa, NULL);
    sa.sa_sigaction = on_tick;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigaction(SIGPROF, &sa, NULL);
}

static void restore_handlers(void) {
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++)
        signal(sigs[i], SIG_DFL);
    /* A tick can still be on its way (valgrind delivers signals late); its
     * default action would end ordex. */
    signal(SIGPROF, SIG_IGN);
    stack_t ss = {0};
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, NULL);
    g_free(g_altstack);
    g_altstack = NULL;
}

bool sched_protected(void (*fn)(void *), void *arg, sched_fault *fault) {
    sigjmp_buf jb;
    sigjmp_buf *outer = g_protect_jmp;
    sched_fault *outer_fault = g_protect_fault;
    /* *fault is written only on a fault (the handler clears it first): this
     * runs for every message delivered, and the fault is 0.4 KiB. */
    if (sigsetjmp(jb, 0)) {
        g_protect_jmp = outer;
        g_protect_fault = outer_fault;
        return false;
    }
    g_protect_jmp = &jb;
    g_protect_fault = fault;
    fn(arg);
    g_protect_jmp = outer;
    g_protect_fault = outer_fault;
    return true;
}

/* ----------------------------------------------------------------------- */
/* Set-up and the run loop                                                  */

bool sched_init(const sched_options *opt, char **err) {
    g_opt = *opt;
    g_nranks = opt->nranks;
    sched_ctx_use_threads(opt->threads);
    g_program = g_strdup(opt->program);
    g_real_stdout = stdout;
    g_real_stderr = stderr;
    if (!sched_program_check(opt->program, err))
        return false;
    sched_access_reset(); /* marks of an earlier run name memory that is gone */
    g_access_armed = g_access_arm_failed = false;
    if (!sched_arenas_reserve(g_nranks, opt->heap_size)) {
        *err = g_strdup_printf("cannot reserve %zu bytes of address space for %d rank heaps "
                               "(lower --heap-size)",
                               opt->heap_size * (size_t)g_nranks, g_nranks);
        return false;
    }
    { /* backtrace() loads its unwinder lazily; do it now, not in a signal handler */
        void *f[2];
        backtrace(f, 2);
    }
    g_ranks = g_new0(sched_rank, g_nranks);
    g_ready = g_new(int, g_nranks);
    g_ready_head = g_ready_len = 0;
    g_nblocked = 0;
    g_stop = false;
    g_rng = opt->seed ? g_rand_new_with_seed((guint32)opt->seed) : NULL;
    sched_ps_resolve();
    sched_ps_reset();
    g_env_start = sched_ps_env_snapshot();
    uint64_t mask = sched_sig_mask_now();
    rankio_init(opt->out ? opt->out : stdout, opt->err ? opt->err : stderr, opt->tag_output);
    for (int i = 0; i < g_nranks; i++) {
        sched_rank *r = &g_ranks[i];
        r->id = i;
        if (!sched_image_load(opt->program, opt->keep_files, &r->img, err)) {
            sched_images_loaded();
            return false;
        }
        if (!sched_ctx_make(&r->ctx, opt->stack_size, rank_entry, r)) {
            *err = opt->threads && errno == EAGAIN
                       ? g_strdup_printf("cannot start a thread for rank %d: %s (lower the rank "
                                         "count, or run without --threads)",
                                         i, g_strerror(errno))
                       : g_strdup_printf("cannot map a %zu-byte stack for rank %d: %s (lower "
                                         "--stack-size or the rank count)",
                                         opt->stack_size, i, g_strerror(errno));
            return false;
        }
        rankio_open(&r->io, i);
        r->last_run = ++g_run_clock;
        if (opt->threads) {
            char name[16];
            snprintf(name, sizeof name, "rank %d", i);
            sched_ctx_set_name(&r->ctx, name); /* what gdb lists */
            /* A rank's streams are used by one thread at a time, but not
             * always the same one: the scheduler flushes them after the rank
             * crashed or ran away, possibly in the middle of a printf that
             * still holds the stream's lock (with fibers that lock is taken
             * again by its owner, the one thread). */
            __fsetlocking(r->io.out, FSETLOCKING_BYCALLER);
            __fsetlocking(r->io.err, FSETLOCKING_BYCALLER);
        }
        /* Each rank gets its own argv, in its own heap, as a process would. */
        sched_arena *a = sched_arena_of(i);
        r->argv = sched_arena_malloc(a, sizeof(char *) * (size_t)(opt->argc + 1));
        for (int k = 0; k < opt->argc; k++) {
            size_t n = strlen(opt->argv[k]) + 1;
            r->argv[k] = sched_arena_malloc(a, n);
            memcpy(r->argv[k], opt->argv[k], n);
        }
        r->argv[opt->argc] = NULL;
        r->ps = sched_ps_new(a, i, g_env_start, mask);
        if (!r->ps) {
            *err = g_strdup_printf("the heap of rank %d is too small for its start-up state "
                                   "(raise --heap-size)",
                                   i);
            sched_images_loaded();
            return false;
        }
        r->libc = sched_ps_globals_of(r->ps);
        r->state = SCHED_READY;
        ready_push(i);
    }
    /* Under a debugger, before it hears of the copies: arming later would
     * write over the breakpoints it puts in their code. */
    if (opt->keep_files)
        sched_access_arm_ranks();
    sched_images_loaded();
    /* Memory copies are loaded through links that are gone by now: remove
     * their directory at once (exploration processes end with _exit). */
    if (!opt->keep_files)
        sched_loader_cleanup();
    install_handlers();
    g_interrupt = NULL;
    g_interrupted = 0;
    g_timer_on = opt->step_timeout_s > 0;
    if (g_timer_on)
        arm_timer();
    return true;
}

void sched_access_arm_ranks(void) {
    if (g_access_armed || !g_ranks)
        return;
    g_access_armed = true;
    const GArray *sites = sched_program_access_sites();
    for (int i = 0; i < g_nranks; i++)
        if (g_ranks[i].img.base && !sched_access_arm_copy(g_ranks[i].img.base, sites))
            g_access_arm_failed = true;
}

bool sched_access_arm_ok(void) {
    return !g_access_arm_failed;
}

void sched_set_interrupt(sched_interrupt_fn check) {
    g_interrupt = check;
    if (check && !g_timer_on) {
        g_timer_on = true;
        arm_timer();
    }
}

bool sched_interrupted(void) {
    return g_interrupted;
}

void sched_after_fork(void) {
    /* Interval timers are not inherited by fork(). */
    if (g_timer_on)
        arm_timer();
}

void sched_fini(void) {
    if (g_ranks) {
        /* Newest first: the C library keeps streams in a list with the newest
         * at its head, so closing in this order costs O(1) per stream. */
        for (int i = g_nranks - 1; i >= 0; i--) {
            sched_ctx_destroy(&g_ranks[i].ctx);
            rankio_close(&g_ranks[i].io);
        }
        sched_ctx_destroy(&g_main_ctx);
        restore_handlers();
    }
    /* Program copies stay loaded: their code may still be referenced by
     * pending atexit handlers of the C library. */
    sched_loader_cleanup();
    sched_access_reset();
    g_free(g_ranks);
    g_ranks = NULL;
    g_free(g_ready);
    g_ready = NULL;
    if (g_rng)
        g_rand_free(g_rng);
    g_rng = NULL;
    g_free(g_program);
    g_program = NULL;
    g_free(g_env_start);
    g_env_start = NULL;
}

void sched_rank_regions(int rank, const void *stack_from, GArray *out) {
    sched_rank *r = &g_ranks[rank];
    for (int i = 0; i < r->img.n_rw; i++) {
        sched_region g = {(const void *)r->img.rw_start[i], r->img.rw_len[i]};
        g_array_append_val(out, g);
    }
    sched_arena *a = sched_arena_of(rank);
    sched_region h = {sched_arena_base(a), sched_arena_extent(a)};
    g_array_append_val(out, h);
    const char *top = (const char *)r->ctx.stack_base + r->ctx.guard_size + r->ctx.stack_size;
    const char *from = stack_from;
    if (from && from >= (const char *)r->ctx.stack_base && from < top) {
        sched_region st = {from, (size_t)(top - from)};
        g_array_append_val(out, st);
    }
}

void sched_rank_globals(int rank, GArray *out) {
    const sched_rank *r = &g_ranks[rank];
    for (int i = 0; i < r->img.n_rw; i++) {
        sched_region g = {(const void *)r->img.rw_start[i], r->img.rw_len[i]};
        g_array_append_val(out, g);
    }
}

uint64_t sched_rank_last_run(int rank) {
    return g_ranks[rank].last_run;
}

bool sched_rank_stack(int rank, uintptr_t *lo, uintptr_t *hi, uintptr_t *sp) {
    if (rank < 0 || rank >= g_nranks || !g_ranks[rank].ctx.stack_base)
        return false;
    const sched_rank *r = &g_ranks[rank];
    *lo = (uintptr_t)r->ctx.stack_base + r->ctx.guard_size;
    *hi = *lo + r->ctx.stack_size;
    uintptr_t saved = (uintptr_t)r->ctx.sp;
    bool known = r != g_current && !sched_ctx_threads() && saved >= *lo && saved < *hi;
    *sp = known ? saved : 0;
    return true;
}

uint32_t sched_rank_output_hash(int rank) {
    return g_ranks[rank].io.hash_out;
}

void sched_discard_output(bool discard) {
    rankio_discard(discard);
}

void sched_flush_output(void) {
    for (int i = 0; i < g_nranks; i++)
        rankio_flush(&g_ranks[i].io);
}

sched_run_result sched_run(sched_choose_fn choose, void *user) {
    for (;;) {
        while (g_ready_len > 0 && !g_stop) {
            sched_rank *r = &g_ranks[ready_pop()];
            switch_in(r);
            if (r->state == SCHED_DONE) {
                if (g_exit_hook)
                    g_exit_hook(r->id, r->exit_code);
            } else if (r->state == SCHED_FAILED) {
                rankio_flush(&r->io);
                if (r->fault.kind != SCHED_FAIL_ABORTED &&
                    r->fault.kind != SCHED_FAIL_INTERRUPTED &&
                    (!g_fail_hook || g_fail_hook(r->id, &r->fault)))
                    g_stop = true;
            }
        }
        if (g_stop)
            return SCHED_RUN_STOPPED;
        if (!choose(user)) {
            if (g_ready_len > 0)
                continue;
            return g_nblocked > 0 ? SCHED_RUN_STUCK : SCHED_RUN_COMPLETE;
        }
        if (g_stop)
            return SCHED_RUN_STOPPED;
    }
}
