/*
 * context.h - execution contexts (fibers): a stack and saved registers.
 *
 * A context is switched to with sched_ctx_switch, which saves the callee-
 * saved registers of the running code on its own stack and resumes the other
 * context where it last switched away.  Switching is a few instructions: no
 * system call, no signal-mask change (that is why ucontext is not used).
 */
#ifndef ORDEX_SCHED_CONTEXT_H
#define ORDEX_SCHED_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sched_ctx {
    void *sp;          /* saved stack pointer while not running */
    void *stack_base;  /* lowest address of the mapping (the guard page) */
    size_t stack_size; /* usable bytes above the guard page */
    size_t guard_size;
    unsigned valgrind_id;
} sched_ctx;

/* Allocates a stack of stack_size bytes with a guard page below it and
 * prepares ctx so that the first switch to it calls fn(arg).  fn must never
 * return.  Returns false when the stack cannot be mapped (errno set). */
bool sched_ctx_make(sched_ctx *ctx, size_t stack_size, void (*fn)(void *), void *arg);

/* Releases the stack of a context that is not running. */
void sched_ctx_destroy(sched_ctx *ctx);

/* True when addr lies in ctx's guard page (a stack overflow fault). */
bool sched_ctx_in_guard(const sched_ctx *ctx, const void *addr);

/* Saves the running context into *from and resumes `to`. */
void sched_ctx_switch(sched_ctx *from, sched_ctx *to);

#endif
