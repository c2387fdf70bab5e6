/*
 * signals.c - signal dispositions, mask and alternate stack per rank, and
 * the program's own handlers run for its faults (see procstate.h).
 *
 * ordex reports a rank's SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP
 * and SIGSYS as a crash of that rank, SIGPROF is its step timeout's tick,
 * and SIGINT and SIGTERM stop its run: its own handlers for them stay
 * installed in the kernel whatever the program does (a rank's handler for
 * SIGINT or SIGTERM runs only when the rank raises the signal itself).  For those signals a rank's
 * sigaction, signal, sigprocmask and sigaltstack act on the rank's own view (struct
 * sched_procstate), never on the kernel, and the view is what they report
 * back: a new rank starts with SIG_DFL everywhere, as a new process does.
 * Every other signal goes to the kernel as before: its disposition and its
 * bit in the real mask are shared by all ranks (a rank still sees its own
 * mask).
 *
 * When one of those signals interrupts a rank's code, ordex's fault handler
 * (sched.c) asks sched_sig_deliver what the rank's view makes of it:
 *  - SIG_DFL: a crash, as before.
 *  - SIG_IGN: ignored when the rank sent it to itself (raise, kill); a
 *    fault cannot be ignored (the kernel kills a process that ignores or
 *    blocks a fault), nor can abort(): a crash.
 *  - blocked: kept pending when sent, delivered when unblocked; a fault is
 *    a crash.
 *  - a handler: ordex's handler copies the signal frame (registers, FPU
 *    state, siginfo) to the rank's own stack (or its alternate stack, for
 *    SA_ONSTACK) and returns into handler_entry there, which calls the
 *    program's handler as ordinary code of the rank: it may print, block in
 *    MPI, exit, or leave with longjmp, and other ranks run and fault
 *    meanwhile (the kernel's alternate stack, ordex's, is free again).  If
 *    the handler returns, handler_entry resumes the interrupted code with
 *    the kernel's rt_sigreturn on the copied frame (changes the handler made
 *    to the context are honoured): the faulting instruction runs again, as
 *    in a process.
 * A rank that ends while its handler runs (exit, MPI_Abort, a second
 * signal with its default action) is reported as a crash at the first
 * fault, with a note of what its handler did (sched.c, report.c).
 */
#define _GNU_SOURCE
/* Fortified headers rename longjmp to __longjmp_chk, which is defined here
 * under its own name. */
#undef _FORTIFY_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "scheduler/procstate.h"

#define NEXT SCHED_NEXT

static const int g_vsigs[SCHED_NVSIG] = {SIGSEGV, SIGBUS, SIGFPE,  SIGILL, SIGABRT,
                                         SIGTRAP, SIGSYS, SIGPROF, SIGINT, SIGTERM};

/* Signals that end ordex's run when they come from outside (Ctrl-C, a batch
 * system): a rank's handler for them runs only when the rank sends one to
 * itself, and then without the kernel, whose handler is ordex's. */
static bool own_only(int sig) {
    return sig == SIGINT || sig == SIGTERM;
}

/* A handler that returns this many times in a row for the same fault (same
 * instruction, address and registers) would loop for ever. */
#define REPEAT_LIMIT 16

/* The least room a handler's frame leaves on a stack. */
#define MIN_ROOM 1024

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31) /* <linux/signal.h> */
#endif

#ifndef FP_XSTATE_MAGIC1
#define FP_XSTATE_MAGIC1 0x46505853u
#endif

static int vslot(int sig) {
    for (int i = 0; i < SCHED_NVSIG; i++)
        if (g_vsigs[i] == sig)
            return i;
    return -1;
}

static uint64_t bit(int sig) {
    return sig >= 1 && sig <= 64 ? (uint64_t)1 << (sig - 1) : 0;
}

static uint64_t vmask(void) {
    uint64_t m = 0;
    for (int i = 0; i < SCHED_NVSIG; i++)
        m |= bit(g_vsigs[i]);
    return m;
}

/* The C library's sigset_t keeps signal sig in bit sig - 1 of its first
 * word, the only one the kernel reads; bits of its internal signals (32,
 * 33) are never reported as blocked. */
#define NEVER_BLOCKED (bit(SIGKILL) | bit(SIGSTOP) | bit(32) | bit(33))

static uint64_t set_bits(const sigset_t *s) {
    return (uint64_t)s->__val[0];
}

static void bits_to_set(uint64_t m, sigset_t *s) {
    sigemptyset(s);
    s->__val[0] = m;
}

const char *sched_sig_name(int sig, char buf[16]) {
    const char *abbrev = sigabbrev_np(sig);
    snprintf(buf, 16, "SIG%s", abbrev ? abbrev : "?");
    return buf;
}

/* ---- the C library's own definitions ---------------------------------- */

static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
static sighandler_t (*real_signal)(int, sighandler_t);
static sighandler_t (*real_bsd_signal)(int, sighandler_t);
static sighandler_t (*real_sysv_signal)(int, sighandler_t);
static sighandler_t (*real___sysv_signal)(int, sighandler_t);
static sighandler_t (*real_sigset)(int, sighandler_t);
static int (*real_sigprocmask)(int, const sigset_t *, sigset_t *);
static int (*real_pthread_sigmask)(int, const sigset_t *, sigset_t *);
static int (*real_sigaltstack)(const stack_t *, stack_t *);
static int (*real_raise)(int);
static int (*real_kill)(pid_t, int);
typedef void (*jump_fn)(struct __jmp_buf_tag *, int);
static jump_fn real_siglongjmp;

void sched_ps_resolve_signals(void);
void sched_ps_resolve_signals(void) {
    (void)NEXT(sigaction);
    (void)NEXT(signal);
    (void)NEXT(bsd_signal);
    (void)NEXT(sysv_signal);
    (void)NEXT(__sysv_signal);
    (void)NEXT(sigset);
    (void)NEXT(sigprocmask);
    (void)NEXT(pthread_sigmask);
    (void)NEXT(sigaltstack);
    (void)NEXT(raise);
    (void)NEXT(kill);
    (void)NEXT(siglongjmp);
}

/* ---- dispositions ------------------------------------------------------ */

int sigaction(int sig, const struct sigaction *act, struct sigaction *oact) {
    sched_procstate *ps = sched_ps_running();
    int k = vslot(sig);
    if (!ps || k < 0)
        return NEXT(sigaction)(sig, act, oact);
    sched_sigact old = ps->act[k];
    if (act) {
        ps->act[k].handler = (void *)act->sa_handler; /* one union with sa_sigaction */
        ps->act[k].mask = set_bits(&act->sa_mask) & ~NEVER_BLOCKED;
        ps->act[k].flags = act->sa_flags;
    }
    if (oact) {
        memset(oact, 0, sizeof *oact);
        oact->sa_handler = (sighandler_t)old.handler;
        oact->sa_flags = old.flags;
        bits_to_set(old.mask, &oact->sa_mask);
    }
    return 0;
}

/* signal() and its relatives, for one of ordex's signals, through the
 * rank's sigaction: flags and whether the signal blocks itself in its
 * handler as the C library sets them. */
static sighandler_t set_handler(int sig, sighandler_t handler, int flags, bool mask_self) {
    if (handler == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (mask_self)
        sigaddset(&sa.sa_mask, sig);
    if (sigaction(sig, &sa, &old) != 0)
        return SIG_ERR;
    return old.sa_handler;
}

sighandler_t signal(int sig, sighandler_t handler) {
    if (!sched_ps_running() || vslot(sig) < 0)
        return NEXT(signal)(sig, handler);
    return set_handler(sig, handler, SA_RESTART, true);
}

sighandler_t bsd_signal(int sig, sighandler_t handler) {
    if (!sched_ps_running() || vslot(sig) < 0)
        return NEXT(bsd_signal)(sig, handler);
    return set_handler(sig, handler, SA_RESTART, true);
}

sighandler_t sysv_signal(int sig, sighandler_t handler) {
    if (!sched_ps_running() || vslot(sig) < 0)
        return NEXT(sysv_signal)(sig, handler);
    return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

sighandler_t __sysv_signal(int sig, sighandler_t handler) {
    if (!sched_ps_running() || vslot(sig) < 0)
        return NEXT(__sysv_signal)(sig, handler);
    return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER, false);
}

sighandler_t sigset(int sig, sighandler_t disp) {
    sched_procstate *ps = sched_ps_running();
    if (!ps || vslot(sig) < 0)
        return NEXT(sigset)(sig, disp);
    bool was_blocked = (ps->blocked & bit(sig)) != 0;
    sighandler_t old;
    if (disp == SIG_HOLD) {
        struct sigaction now;
        sigaction(sig, NULL, &now);
        old = now.sa_handler;
        ps->blocked |= bit(sig);
    } else {
        old = set_handler(sig, disp, 0, false);
        if (old == SIG_ERR)
            return SIG_ERR;
        ps->blocked &= ~bit(sig);
    }
    return was_blocked ? SIG_HOLD : old;
}

/* ---- the mask ------------------------------------------------------------ */

/* Signals the rank sent itself while it blocked them, now unblocked. */
static void deliver_pending(sched_procstate *ps) {
    uint64_t ready;
    while ((ready = ps->pending & ~ps->blocked) != 0) {
        int sig = __builtin_ctzll(ready) + 1;
        ps->pending &= ~bit(sig);
        raise(sig);
    }
}

uint64_t sched_sig_mask_now(void) {
    sigset_t s;
    NEXT(pthread_sigmask)(SIG_BLOCK, NULL, &s);
    return set_bits(&s) & ~vmask() & ~NEVER_BLOCKED;
}

/* The real mask never holds ordex's signals; the rank's view holds all. */
static int set_mask(sched_procstate *ps, int how, const sigset_t *set, sigset_t *oset,
                    bool posix_errors) {
    uint64_t old = ps->blocked, want = 0;
    sigset_t s;
    if (set) {
        want = set_bits(set); /* before the call: set and oset may be the same */
        s = *set;
        s.__val[0] &= ~vmask();
    }
    int rc = NEXT(pthread_sigmask)(how, set ? &s : NULL, oset);
    if (rc != 0) {
        if (!posix_errors)
            return rc;
        errno = rc;
        return -1;
    }
    if (oset)
        bits_to_set(old, oset);
    if (set) {
        uint64_t now = how == SIG_BLOCK ? old | want : how == SIG_UNBLOCK ? old & ~want : want;
        ps->blocked = now & ~NEVER_BLOCKED;
        ps->left_blocked = 0;
        deliver_pending(ps);
    }
    return 0;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *oset) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(sigprocmask)(how, set, oset);
    return set_mask(ps, how, set, oset, true);
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *oset) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(pthread_sigmask)(how, set, oset);
    return set_mask(ps, how, set, oset, false);
}

/* ---- the alternate stack --------------------------------------------------- */

static bool on_alt_stack(const sched_procstate *ps, uintptr_t sp) {
    uintptr_t lo = (uintptr_t)ps->alt_sp;
    return ps->alt_flags != SS_DISABLE && sp >= lo && sp < lo + ps->alt_size;
}

int sigaltstack(const stack_t *ss, stack_t *oss) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(sigaltstack)(ss, oss);
    bool on = on_alt_stack(ps, (uintptr_t)__builtin_frame_address(0));
    stack_t old = {.ss_sp = ps->alt_sp, .ss_size = ps->alt_size, .ss_flags = ps->alt_flags};
    if (on)
        old.ss_flags = SS_ONSTACK;
    if (ss) {
        int mode = ss->ss_flags & ~SS_AUTODISARM;
        if (on) {
            errno = EPERM;
            return -1;
        }
        if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE) {
            errno = EINVAL;
            return -1;
        }
        if (mode == SS_DISABLE) {
            ps->alt_sp = NULL;
            ps->alt_size = 0;
            ps->alt_flags = SS_DISABLE;
        } else {
            if (ss->ss_size < 2048) { /* the kernel's MINSIGSTKSZ */
                errno = ENOMEM;
                return -1;
            }
            ps->alt_sp = ss->ss_sp;
            ps->alt_size = ss->ss_size;
            ps->alt_flags = ss->ss_flags & SS_AUTODISARM;
        }
    }
    if (oss)
        *oss = old;
    return 0;
}

/* ---- sending signals to oneself ------------------------------------------ */

/* SIGINT or SIGTERM that the rank sends itself, delivered as the kernel
 * would to a process: before raise() returns. */
static int raise_own(sched_procstate *ps, int sig) {
    if (ps->blocked & bit(sig)) {
        ps->pending |= bit(sig);
        return 0;
    }
    sched_sigact *a = &ps->act[vslot(sig)];
    sched_sigact act = *a;
    if (act.handler == (void *)SIG_IGN)
        return 0;
    if (act.handler == (void *)SIG_DFL) { /* ends the process */
        sched_fault f;
        memset(&f, 0, sizeof f);
        sched_record_fault(&f, sig, NULL, NULL);
        f.kind = SCHED_FAIL_SIGNAL;
        f.code = SI_TKILL;
        char name[16];
        snprintf(ps->note, SCHED_NOTE_LEN,
                 "the program sent %s to itself, whose default action ends the process",
                 sched_sig_name(sig, name));
        f.note = ps->note;
        sched_fail_current(&f);
    }
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_signo = sig;
    si.si_code = SI_TKILL;
    si.si_pid = getpid();
    si.si_uid = getuid();
    ucontext_t uc;
    getcontext(&uc);
    uint64_t saved = ps->blocked;
    ps->blocked |= act.mask & ~NEVER_BLOCKED;
    if (!(act.flags & SA_NODEFER))
        ps->blocked |= bit(sig);
    if (act.flags & SA_RESETHAND) {
        a->handler = (void *)SIG_DFL;
        a->flags &= ~SA_SIGINFO;
    }
    if (act.flags & SA_SIGINFO)
        ((void (*)(int, siginfo_t *, void *))act.handler)(sig, &si, &uc);
    else
        ((void (*)(int))act.handler)(sig);
    ps->blocked = saved;
    deliver_pending(ps);
    return 0;
}

/* raise() marks the signal as the rank's own doing: a SIGABRT that the rank
 * did not raise itself comes from abort(), whose handler must not return. */
int raise(int sig) {
    sched_procstate *ps = sched_ps_running();
    if (!ps || vslot(sig) < 0)
        return NEXT(raise)(sig);
    if (own_only(sig))
        return raise_own(ps, sig);
    int outer = ps->raising;
    ps->raising = sig;
    int rc = NEXT(raise)(sig);
    ps->raising = outer;
    return rc;
}

/* A rank's pid is not a real process: a signal to itself is raised, one to
 * another rank refused. */
int kill(pid_t pid, int sig) {
    sched_procstate *ps = sched_ps_running();
    if (ps) {
        pid_t self = sched_forked_child ? getpid() : sched_rank_pid(ps->rank);
        bool rank_pid =
            pid >= SCHED_RANK_PID_BASE && pid < SCHED_RANK_PID_BASE + (pid_t)sched_nranks();
        if (pid == self || rank_pid) {
            if (sig < 0 || sig > 64) {
                errno = EINVAL;
                return -1;
            }
            if (sig == 0)
                return 0;
            if (pid == self)
                return raise(sig);
            errno = EPERM;
            return -1;
        }
    }
    return NEXT(kill)(pid, sig);
}

/* ---- leaving a handler with longjmp --------------------------------------- */

/* A jump that restores a mask saved by sigsetjmp(env, 1) restores the
 * rank's view too (the saved mask is the real one: without ordex's signals,
 * which were not blocked); a jump that does not keeps the view, and with it
 * the signal whose handler was left, blocked, as the kernel would. */
static void note_jump(struct __jmp_buf_tag *env) {
    sched_procstate *ps = sched_ps_running();
    if (ps && env->__mask_was_saved)
        ps->blocked = set_bits(&env->__saved_mask) & ~vmask() & ~NEVER_BLOCKED;
}

void siglongjmp(sigjmp_buf env, int val) {
    note_jump(env);
    NEXT(siglongjmp)(env, val);
    __builtin_unreachable();
}

void longjmp(jmp_buf env, int val) {
    note_jump(env);
    NEXT(siglongjmp)(env, val);
    __builtin_unreachable();
}

void _longjmp(jmp_buf env, int val) {
    note_jump(env);
    NEXT(siglongjmp)(env, val);
    __builtin_unreachable();
}

/* The fortified longjmp: its check of the target against the real
 * alternate stack does not know a rank's own; the plain one is used. */
void __longjmp_chk(struct __jmp_buf_tag env[1], int val) __attribute__((noreturn));
void __longjmp_chk(struct __jmp_buf_tag env[1], int val) {
    note_jump(env);
    NEXT(siglongjmp)(env, val);
    __builtin_unreachable();
}

/* ---- running a program's handler ------------------------------------------ */

/* A program's handler running for a signal: lies on the stack the handler
 * runs on, above it. */
struct sched_sigframe {
    ucontext_t uc; /* first: rt_sigreturn reads it at the stack pointer */
    siginfo_t info;
    sched_sigframe *prev;
    sched_procstate *ps;
    int sig;
    sched_sigact act;       /* the disposition it runs under */
    uint64_t saved_blocked; /* the rank's mask before it */
    uintptr_t stack_lo;     /* live while the stack pointer is in [stack_lo, this frame) */
    bool sent;              /* sent (raise, kill), not a fault */
    bool from_abort;        /* SIGABRT from abort(): the handler must not return */
    uint64_t key;           /* the fault, for REPEAT_LIMIT */
    sched_fault rec;        /* the fault as a crash report gives it */
};

static bool frame_live(const sched_sigframe *f, uintptr_t sp) {
    return sp >= f->stack_lo && sp < (uintptr_t)f;
}

/* Frames whose handler was left with longjmp: the signal of each stays
 * blocked unless the jump restored the mask. */
static void forget_dead_frames(sched_procstate *ps, uintptr_t sp) {
    while (ps->frame && !frame_live(ps->frame, sp)) {
        if (ps->blocked & bit(ps->frame->sig) & ~ps->frame->saved_blocked)
            ps->left_blocked |= bit(ps->frame->sig);
        ps->frame = ps->frame->prev;
    }
}

const sched_fault *sched_sig_live_fault(sched_procstate *ps, uintptr_t sp) {
    forget_dead_frames(ps, sp);
    return ps->frame ? &ps->frame->rec : NULL;
}

/* The same fault again: signal, address, and registers up to the
 * instruction pointer. */
static uint64_t fault_key(int sig, const siginfo_t *si, const ucontext_t *uc) {
    uint64_t h = 1469598103934665603u ^ (uint64_t)sig;
    h = (h ^ (uint64_t)(uintptr_t)si->si_addr) * 1099511628211u;
    for (int i = 0; i <= REG_RIP; i++)
        h = (h ^ (uint64_t)uc->uc_mcontext.gregs[i]) * 1099511628211u;
    return h;
}

/* Resumes the context in uc as the kernel does at the end of a handler. */
static _Noreturn void resume(ucontext_t *uc) {
    __asm__ volatile("mov %0, %%rsp\n\t"
                     "mov $15, %%eax\n\t" /* rt_sigreturn */
                     "syscall\n\t"
                     "ud2"
                     :
                     : "r"(uc)
                     : "memory");
    __builtin_unreachable();
}

/* The return address of handler_entry, which never returns: the kernel's
 * rt_sigreturn sequence, which unwinders (the C library's backtrace, gdb)
 * recognise as a signal frame whose ucontext lies just above the return
 * address.  The frame puts the copied ucontext there, so that a backtrace
 * taken in the program's handler goes on into the code the signal
 * interrupted, as in a process. */
__asm__(".text\n"
        /* An unwinder looks up the code before a return address: a nop
         * that no function's unwind table covers, so that it goes on to
         * recognise the sequence. */
        "    nop\n"
        ".type sched_sig_restorer, @function\n"
        "sched_sig_restorer:\n"
        "    movq $15, %rax\n" /* rt_sigreturn */
        "    syscall\n"
        "    ud2\n"
        ".size sched_sig_restorer, .-sched_sig_restorer\n");
extern const char sched_sig_restorer[];

/* Entered (by returning from ordex's fault handler) on the stack the
 * program's handler runs on, with the frame sched_sig_deliver laid out. */
static _Noreturn __attribute__((noinline, used)) void handler_entry(sched_sigframe *f) {
    sched_procstate *ps = f->ps;
    if (f->act.flags & SA_SIGINFO)
        ((void (*)(int, siginfo_t *, void *))f->act.handler)(f->sig, &f->info, &f->uc);
    else
        ((void (*)(int))f->act.handler)(f->sig);
    /* The handler returned: the mask is the rank's before it again, and
     * what it kept pending arrives, still as a consequence of this signal
     * (frames above this one were left by longjmp). */
    ps->frame = f;
    ps->blocked = f->saved_blocked;
    deliver_pending(ps);
    ps->frame = f->prev;
    if (f->from_abort || RUNNING_ON_VALGRIND) {
        /* valgrind takes rt_sigreturn only on frames it made itself. */
        sched_fault rec = f->rec;
        char name[16];
        if (f->from_abort)
            snprintf(ps->note, SCHED_NOTE_LEN,
                     "the program's own SIGABRT handler returned, and abort() then ends the "
                     "process");
        else
            snprintf(ps->note, SCHED_NOTE_LEN,
                     "the program's own %s handler returned, and ordex cannot resume the rank "
                     "under valgrind",
                     sched_sig_name(f->sig, name));
        rec.note = ps->note;
        sched_fail_current(&rec);
    }
    if (!f->sent) {
        if (ps->repeat_key == f->key) {
            ps->repeat_count++;
        } else {
            ps->repeat_key = f->key;
            ps->repeat_count = 1;
        }
    }
    resume(&f->uc);
}

/* The FPU as the kernel hands it to a handler: control words at their
 * defaults, no x87 register in use. */
static void fpu_as_new(char *fx) {
    uint16_t cwd = 0x37f, zero = 0;
    uint32_t mxcsr = 0x1f80;
    memcpy(fx, &cwd, 2);
    memcpy(fx + 2, &zero, 2);
    memcpy(fx + 4, &zero, 2);
    memcpy(fx + 24, &mxcsr, 4);
}

sched_sig_result sched_sig_deliver(sched_procstate *ps, int sig, siginfo_t *si, ucontext_t *uc,
                                   bool overflow, uintptr_t stack_lo, uintptr_t stack_hi,
                                   char *note, const sched_fault **orig) {
    note[0] = '\0';
    *orig = NULL;
    int k = vslot(sig);
    if (k < 0 || sig == SIGPROF)
        return SCHED_SIG_FATAL;
    char name[16];
    sched_sig_name(sig, name);
    bool sent = si->si_code <= 0; /* SI_USER, SI_TKILL, SI_QUEUE, ... */
    bool from_abort = sig == SIGABRT && sent && ps->raising != sig;
    ps->raising = 0;
    uintptr_t sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
    forget_dead_frames(ps, sp);
    sched_sigact *a = &ps->act[k];

    if (from_abort) /* abort() unblocks SIGABRT */
        ps->blocked &= ~bit(sig);
    if (ps->blocked & bit(sig)) {
        if (sent) {
            ps->pending |= bit(sig);
            return SCHED_SIG_DONE;
        }
        if (ps->frame && ps->frame->sig == sig)
            snprintf(note, SCHED_NOTE_LEN,
                     "a second %s inside the program's own %s handler, which runs with %s blocked",
                     name, name, name);
        else if (ps->left_blocked & bit(sig))
            snprintf(note, SCHED_NOTE_LEN,
                     "%s was still blocked: the program left its %s handler with longjmp, which "
                     "keeps it blocked (siglongjmp to sigsetjmp(env, 1) does not), and a process "
                     "cannot block a fault",
                     name, name);
        else
            snprintf(note, SCHED_NOTE_LEN,
                     "the program blocked %s (sigprocmask), which a fault overrides", name);
        return SCHED_SIG_FATAL;
    }
    if (a->handler == (void *)SIG_IGN) {
        if (sent && !from_abort)
            return SCHED_SIG_DONE;
        snprintf(note, SCHED_NOTE_LEN, "the program set %s to SIG_IGN, which %s overrides", name,
                 from_abort ? "abort()" : "a fault");
        return SCHED_SIG_FATAL;
    }
    if (a->handler == (void *)SIG_DFL) {
        if (ps->frame) {
            char first[16];
            *orig = &ps->frame->rec;
            snprintf(note, SCHED_NOTE_LEN,
                     "the program's own %s handler ran, then %s with its default action ended "
                     "the rank",
                     sched_sig_name(ps->frame->sig, first), name);
        }
        return SCHED_SIG_FATAL;
    }

    /* The program's handler. */
    uint64_t key = sent ? 0 : fault_key(sig, si, uc);
    if (!sent && key == ps->repeat_key && ps->repeat_count >= REPEAT_LIMIT) {
        snprintf(note, SCHED_NOTE_LEN,
                 "the program's own %s handler returned %d times, and the same instruction "
                 "faulted again each time (a process would loop for ever)",
                 name, ps->repeat_count);
        return SCHED_SIG_FATAL;
    }
    uintptr_t top, lo;
    bool on_alt = on_alt_stack(ps, sp);
    if ((a->flags & SA_ONSTACK) && ps->alt_flags != SS_DISABLE && !on_alt) {
        lo = (uintptr_t)ps->alt_sp;
        top = lo + ps->alt_size;
    } else if (overflow) {
        snprintf(note, SCHED_NOTE_LEN,
                 "the program's own %s handler could not run: the stack was full, and no "
                 "alternate signal stack (sigaltstack, SA_ONSTACK) was set up for it",
                 name);
        return SCHED_SIG_FATAL;
    } else {
        top = sp - 128; /* the red zone of the interrupted function */
        lo = on_alt ? (uintptr_t)ps->alt_sp : sp >= stack_lo && sp < stack_hi ? stack_lo : 0;
    }
    /* From the top down: the FPU state (64-byte aligned for xrstor), the
     * frame (its ucontext first), a return address, the handler's own
     * stack. */
    char *fx = (char *)uc->uc_mcontext.fpregs;
    size_t fxsize = 0;
    if (fx) {
        uint32_t magic, ext;
        memcpy(&magic, fx + 464, 4);
        memcpy(&ext, fx + 468, 4);
        fxsize = magic == FP_XSTATE_MAGIC1 && ext >= 512 && ext <= (1u << 20) ? ext : 512;
    }
    uintptr_t fx_at = (top - fxsize) & ~(uintptr_t)63;
    uintptr_t f_at = (fx_at - sizeof(sched_sigframe)) & ~(uintptr_t)63;
    uintptr_t entry_sp = f_at - 8;
    if (lo && (top < lo || entry_sp < lo + MIN_ROOM)) {
        snprintf(note, SCHED_NOTE_LEN,
                 "the program's own %s handler could not run: no room left on the stack", name);
        return SCHED_SIG_FATAL;
    }
    /* Below the interrupted stack pointer: memcheck must let it be written. */
    VALGRIND_MAKE_MEM_UNDEFINED((void *)entry_sp, top - entry_sp);
    sched_sigframe *f = (sched_sigframe *)f_at;
    memset(f, 0, sizeof *f);
    memcpy(&f->uc, uc, offsetof(ucontext_t, uc_sigmask) + 8); /* the kernel's ucontext */
    if (fx) {
        memcpy((void *)fx_at, fx, fxsize);
        f->uc.uc_mcontext.fpregs = (fpregset_t)fx_at;
    }
    memcpy(&f->info, si, sizeof *si);
    f->prev = ps->frame;
    f->ps = ps;
    f->sig = sig;
    f->act = *a;
    f->saved_blocked = ps->blocked;
    f->stack_lo = lo ? lo : f_at > ((uintptr_t)64 << 20) ? f_at - ((uintptr_t)64 << 20) : 0;
    f->sent = sent;
    f->from_abort = from_abort;
    f->key = key;
    sched_record_fault(&f->rec, sig, si, uc);
    f->rec.kind = overflow ? SCHED_FAIL_STACK_OVERFLOW : SCHED_FAIL_SIGNAL;
    ps->frame = f;
    ps->blocked |= a->mask & ~NEVER_BLOCKED;
    if (!(a->flags & SA_NODEFER))
        ps->blocked |= bit(sig);
    if (a->flags & SA_RESETHAND) {
        a->handler = (void *)SIG_DFL;
        a->flags &= ~SA_SIGINFO;
    }
    if (fx)
        fpu_as_new(fx);
    *(uintptr_t *)entry_sp = (uintptr_t)sched_sig_restorer;
    uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)handler_entry;
    uc->uc_mcontext.gregs[REG_RSP] = (greg_t)entry_sp;
    uc->uc_mcontext.gregs[REG_RDI] = (greg_t)(uintptr_t)f;
    uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)0x400; /* the direction flag, clear on entry */
    return SCHED_SIG_DONE;
}

int sched_real_sigaltstack(const stack_t *ss, stack_t *oss) {
    return NEXT(sigaltstack)(ss, oss);
}

int sched_real_sigmask(int how, const sigset_t *set, sigset_t *oset) {
    return NEXT(pthread_sigmask)(how, set, oset);
}

void sched_sig_unblock(int sig) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    NEXT(pthread_sigmask)(SIG_UNBLOCK, &set, NULL);
}

void sched_sig_die(int sig) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    NEXT(sigaction)(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    NEXT(pthread_sigmask)(SIG_UNBLOCK, &set, NULL);
    NEXT(raise)(sig);
}
