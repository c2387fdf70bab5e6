/*
 * context.c - context stacks, the first frame of a new fiber, and the choice
 * between the fiber and thread backends (context_thread.c).
 */
#include "scheduler/context.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Client requests tell valgrind about fiber stacks (no-ops otherwise). */
#include <valgrind/valgrind.h>
#define ORDEX_HAVE_VALGRIND 1

void sched_ctx_switch_sp(void **save_sp, void *new_sp);
void sched_ctx_start(void);

/* One flag for the whole process: a run uses one backend throughout. */
static bool g_threads;

void sched_ctx_use_threads(bool on) {
    g_threads = on;
}
bool sched_ctx_threads(void) {
    return g_threads;
}

void sched_ctx_prepare(sched_ctx *ctx, void (*fn)(void *), void *arg) {
    uintptr_t top =
        ((uintptr_t)ctx->stack_base + ctx->guard_size + ctx->stack_size) & ~(uintptr_t)15;
    uint64_t *slot = (uint64_t *)(top - 24); /* return address for the first switch */
    slot[0] = (uint64_t)(uintptr_t)sched_ctx_start;
    slot[-1] = 0;                        /* rbp */
    slot[-2] = 0;                        /* rbx */
    slot[-3] = (uint64_t)(uintptr_t)arg; /* r12 */
    slot[-4] = (uint64_t)(uintptr_t)fn;  /* r13 */
    slot[-5] = 0;                        /* r14 */
    slot[-6] = 0;                        /* r15 */
    uint32_t *ctl = (uint32_t *)&slot[-7];
    ctl[0] = 0x1f80; /* MXCSR: all exceptions masked, round to nearest */
    ctl[1] = 0x037f; /* x87 control word: the ABI's default */
    ctx->sp = &slot[-7];
}

bool sched_ctx_make(sched_ctx *ctx, size_t stack_size, void (*fn)(void *), void *arg) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    stack_size = (stack_size + page - 1) & ~(page - 1);
    /* MAP_NORESERVE: thousands of ranks each get a large stack, but only the
     * pages a rank touches are ever backed. */
    char *base = mmap(NULL, stack_size + page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return false;
    if (mprotect(base, page, PROT_NONE) != 0) {
        munmap(base, stack_size + page);
        return false;
    }
    memset(ctx, 0, sizeof *ctx);
    ctx->stack_base = base;
    ctx->guard_size = page;
    ctx->stack_size = stack_size;
    sched_ctx_prepare(ctx, fn, arg);
#ifdef ORDEX_HAVE_VALGRIND
    ctx->valgrind_id = VALGRIND_STACK_REGISTER(base + page, base + page + stack_size);
#endif
    /* A thread context runs the very same fiber, on the same stack, from a
     * thread of its own: its stack (and so how deep a rank can recurse before
     * it overflows, and what a backtrace shows) is the same with both
     * backends, and the thread's own bookkeeping stays off it. */
    if (g_threads && !sched_ctx_thread_start(ctx)) {
        int e = errno;
        sched_ctx_destroy(ctx);
        errno = e;
        return false;
    }
    return true;
}

void sched_ctx_set_name(sched_ctx *ctx, const char *name) {
    if (ctx->thread)
        sched_ctx_thread_name(ctx, name);
}

void sched_ctx_destroy(sched_ctx *ctx) {
    if (ctx->thread) /* its stack may be unmapped only once the thread is gone */
        sched_ctx_thread_end(ctx);
    if (!ctx->stack_base)
        return;
#ifdef ORDEX_HAVE_VALGRIND
    VALGRIND_STACK_DEREGISTER(ctx->valgrind_id);
#endif
    munmap(ctx->stack_base, ctx->stack_size + ctx->guard_size);
    ctx->stack_base = NULL;
}

bool sched_ctx_in_guard(const sched_ctx *ctx, const void *addr) {
    const char *a = addr, *b = ctx->stack_base;
    /* A frame that overflows by more than a page still lands close below the
     * stack; count a fault within 64 KiB under the usable stack as overflow. */
    return b && a >= b - 65536 && a < b + ctx->guard_size;
}

bool sched_ctx_on_thread(const sched_ctx *ctx) {
    return !g_threads || sched_ctx_thread_is_self(ctx);
}

void sched_ctx_switch(sched_ctx *from, sched_ctx *to) {
    if (g_threads)
        sched_ctx_thread_switch(from, to);
    else
        sched_ctx_switch_sp(&from->sp, to->sp);
}
