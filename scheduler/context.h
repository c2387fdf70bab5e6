/*
 * context.h - execution contexts: a stack and a place to resume.
 *
 * Two backends implement the same interface:
 *
 *  - fibers (the default): a context is switched to with sched_ctx_switch,
 *    which saves the callee-saved registers of the running code on its own
 *    stack and resumes the other context where it last switched away.
 *    Switching is a few instructions: no system call, no signal-mask change
 *    (that is why ucontext is not used), and fork() copies every context.
 *
 *  - threads: every context is such a fiber, run by an OS thread of its
 *    own, and a switch hands a baton (one semaphore per context) from one
 *    thread to the next, so exactly one of them runs at a time.  Slower, and
 *    not fork-safe, but a debugger then sees each context as a thread with
 *    its own backtrace.
 *
 * A zero-initialised sched_ctx stands for the code that calls
 * sched_ctx_switch first (the scheduler): it needs no sched_ctx_make.
 */
#ifndef ORDEX_SCHED_CONTEXT_H
#define ORDEX_SCHED_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sched_thread sched_thread; /* thread backend state (context_thread.c) */

typedef struct sched_ctx {
    void *sp;          /* saved stack pointer while not running (fibers) */
    void *stack_base;  /* lowest address of the mapping (the guard page) */
    size_t stack_size; /* usable bytes above the guard page */
    size_t guard_size;
    unsigned valgrind_id;
    sched_thread *thread; /* threads: the OS thread of this context, or NULL */
} sched_ctx;

/* Chooses the backend of the contexts made from now on: false = fibers (the
 * default), true = one OS thread per context.  Every context that takes part
 * in one switch must come from the same backend. */
void sched_ctx_use_threads(bool on);
bool sched_ctx_threads(void);

/* Allocates a stack of stack_size bytes with a guard page below it and
 * prepares ctx so that the first switch to it calls fn(arg).  fn must never
 * return.  Returns false when the stack (or the thread) cannot be made, with
 * errno set. */
bool sched_ctx_make(sched_ctx *ctx, size_t stack_size, void (*fn)(void *), void *arg);

/* Lays the first frame again on the stack of a fiber made by sched_ctx_make,
 * so that the next switch to ctx calls fn(arg) from the top of the stack.
 * Whatever ran on that stack before is forgotten.  Fibers only. */
void sched_ctx_prepare(sched_ctx *ctx, void (*fn)(void *), void *arg);

/* Names the context's thread (at most 15 bytes are kept), which debuggers
 * show; no effect on fibers. */
void sched_ctx_set_name(sched_ctx *ctx, const char *name);

/* Releases a context that is not running.  With threads, a context parked
 * anywhere (even inside a signal handler) has its thread ended first. */
void sched_ctx_destroy(sched_ctx *ctx);

/* True when addr lies in ctx's guard page (a stack overflow fault). */
bool sched_ctx_in_guard(const sched_ctx *ctx, const void *addr);

/* True when the calling OS thread is the one that runs ctx.  Always true for
 * fibers (they share one thread); async-signal-safe. */
bool sched_ctx_on_thread(const sched_ctx *ctx);

/* Saves the running context into *from and resumes `to`.  May be called from
 * a signal handler (a failing context parks there and is never resumed). */
void sched_ctx_switch(sched_ctx *from, sched_ctx *to);

/* The thread backend (context_thread.c), used by the functions above:
 * starts a thread that waits for the first switch to ctx and then runs ctx's
 * fiber (already made) on ctx's stack; ends it; hands over. */
bool sched_ctx_thread_start(sched_ctx *ctx);
void sched_ctx_thread_end(sched_ctx *ctx);
void sched_ctx_thread_name(sched_ctx *ctx, const char *name);
bool sched_ctx_thread_is_self(const sched_ctx *ctx);
void sched_ctx_thread_switch(sched_ctx *from, sched_ctx *to);

#endif
