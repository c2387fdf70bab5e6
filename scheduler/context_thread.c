/*
 * context_thread.c - the thread backend of contexts (see context.h).
 *
 * A context made with threads on is an ordinary fiber (context.c maps its
 * stack and builds its first frame) that one OS thread of its own runs.  The
 * thread starts on a small stack of the C library's, waits for its turn,
 * then switches onto the fiber and stays there: rank code sees exactly the
 * stack it has with the fiber backend, and the thread's bookkeeping (the C
 * library puts it at the top of a thread's stack) stays off it.
 *
 * Control moves like a baton: a switch posts the target's semaphore and
 * waits on its own, so exactly one thread runs at any time.  The rest of
 * ordex needs no locks: the semaphore hand-over orders all memory accesses.
 *
 * The code that first switches away from a zero-initialised context (the
 * scheduler, on the process's main thread) is adopted on the fly: it gets a
 * baton of its own without any allocation, because that first switch may
 * happen while a rank's heap is the current one.
 */
#define _GNU_SOURCE
#include "scheduler/context.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <glib.h>

#include "scheduler/procstate.h"

void sched_ctx_switch_sp(void **save_sp, void *new_sp); /* switch_x86_64.S */

/* The thread's own stack only ever holds its start and its last words. */
#define BOOT_STACK_SIZE (64 * 1024)

/* Alternate signal stack of each thread: the fault handler must run even
 * when the fiber's stack has overflowed into its guard page, and
 * sigaltstack is per thread. */
#define ALTSTACK_SIZE (256 * 1024)

struct sched_thread {
    sem_t baton; /* posted when this context may run */
    pthread_t tid;
    bool own;           /* a thread started here (not the adopted scheduler) */
    volatile bool quit; /* set before the last post: end the thread */
    void *fiber_sp;     /* where the fiber starts */
    void *boot_sp;      /* the thread's own stack, while it runs the fiber */
    sigset_t mask;      /* the creator's signal mask, taken over once set up */
    void *altstack;
};

static sched_thread g_home;
static bool g_home_ready;

static sched_thread *adopt(sched_ctx *ctx) {
    if (!g_home_ready) {
        sem_init(&g_home.baton, 0, 0);
        g_home.tid = pthread_self();
        g_home_ready = true;
    }
    ctx->thread = &g_home;
    return &g_home;
}

/* Waits for the baton.  A signal handler run by this thread while it waits
 * (a process-wide signal such as the profiling tick may pick any thread)
 * interrupts sem_wait, which is then simply resumed. */
static void wait_baton(sched_thread *t) {
    while (sem_wait(&t->baton) != 0)
        if (errno != EINTR)
            abort();
}

/* The C library's sigaltstack and pthread_sigmask, not the ones ordex
 * gives programs: the rank this thread is for may already be the running
 * one, and its view of signals is not what is set up here. */
static void *thread_main(void *p) {
    sched_thread *t = p;
    stack_t ss = {.ss_sp = t->altstack, .ss_size = ALTSTACK_SIZE};
    sched_real_sigaltstack(&ss, NULL);
    sched_real_sigmask(SIG_SETMASK, &t->mask, NULL);
    wait_baton(t);
    if (!t->quit) /* comes back only when told to quit (see sched_ctx_thread_switch) */
        sched_ctx_switch_sp(&t->boot_sp, t->fiber_sp);
    /* Return normally, so that the C library releases the thread and
     * pthread_join tells when the fiber's stack is no longer in use. */
    stack_t off = {.ss_flags = SS_DISABLE};
    sched_real_sigaltstack(&off, NULL);
    return NULL;
}

bool sched_ctx_thread_start(sched_ctx *ctx) {
    sched_thread *t = g_new0(sched_thread, 1);
    t->own = true;
    t->fiber_sp = ctx->sp;
    t->altstack = mmap(NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (t->altstack == MAP_FAILED) {
        g_free(t);
        return false;
    }
    sem_init(&t->baton, 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, BOOT_STACK_SIZE);
    /* The thread starts with every signal blocked and takes over our mask
     * only once its alternate signal stack is in place. */
    sigset_t all;
    sigfillset(&all);
    sched_real_sigmask(SIG_SETMASK, &all, &t->mask);
    int rc = pthread_create(&t->tid, &attr, thread_main, t);
    sched_real_sigmask(SIG_SETMASK, &t->mask, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        sem_destroy(&t->baton);
        munmap(t->altstack, ALTSTACK_SIZE);
        g_free(t);
        errno = rc;
        return false;
    }
    ctx->thread = t;
    return true;
}

void sched_ctx_thread_name(sched_ctx *ctx, const char *name) {
    char buf[16]; /* the kernel keeps 15 bytes */
    g_strlcpy(buf, name, sizeof buf);
    pthread_setname_np(ctx->thread->tid, buf);
}

void sched_ctx_thread_end(sched_ctx *ctx) {
    sched_thread *t = ctx->thread;
    ctx->thread = NULL;
    if (!t || !t->own)
        return; /* the adopted scheduler thread keeps its baton for the next run */
    t->quit = true;
    sem_post(&t->baton);
    pthread_join(t->tid, NULL);
    sem_destroy(&t->baton);
    munmap(t->altstack, ALTSTACK_SIZE);
    g_free(t);
}

bool sched_ctx_thread_is_self(const sched_ctx *ctx) {
    return ctx->thread && pthread_equal(ctx->thread->tid, pthread_self());
}

void sched_ctx_thread_switch(sched_ctx *from, sched_ctx *to) {
    sched_thread *self = from->thread ? from->thread : adopt(from);
    sched_thread *next = to->thread ? to->thread : adopt(to);
    sem_post(&next->baton);
    wait_baton(self);
    /* Told to quit while parked here, wherever that is (in an MPI call, at
     * the end of main, inside the fault handler): leave the fiber's frames
     * as they are and finish the thread on its own stack. */
    if (self->quit)
        sched_ctx_switch_sp(&from->sp, self->boot_sp);
}
