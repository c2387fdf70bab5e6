/*
 * heap_malloc.c - the process-wide malloc family.
 *
 * ordex exports these symbols, so they take precedence for the program's
 * shared objects and for the C library alike.  Allocations go to the
 * current rank's arena while rank code runs (arena.h) and to the C library's
 * own allocator otherwise; frees dispatch on the address.
 */
/* Builds that bring their own allocator (the libFuzzer builds of tests/fuzz,
 * --config=fuzz, whose static sanitizer runtime must own malloc) leave the
 * malloc family to it: nothing they run has ranks. */
#ifndef ORDEX_NO_HEAP_INTERPOSE

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "scheduler/arena.h"

#include <dlfcn.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

/* The C library's malloc_usable_size, which ours shadows. */
static size_t libc_usable_size(void *p) {
    static size_t (*fn)(void *);
    if (!fn)
        fn = (size_t(*)(void *))dlsym(RTLD_NEXT, "malloc_usable_size");
    return fn ? fn(p) : 0;
}

void *malloc(size_t size) {
    sched_arena *a = sched_arena_current;
    return a ? sched_arena_malloc(a, size) : __libc_malloc(size);
}

void free(void *p) {
    if (sched_arena_owning(p))
        sched_arena_free(p);
    else
        __libc_free(p);
}

void *calloc(size_t n, size_t size) {
    sched_arena *a = sched_arena_current;
    if (!a)
        return __libc_calloc(n, size);
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = sched_arena_malloc(a, bytes);
    if (p) /* reused chunks hold old data */
        memset(p, 0, bytes);
    return p;
}

void *realloc(void *p, size_t size) {
    if (!p)
        return malloc(size);
    if (!sched_arena_owning(p)) {
        if (!sched_arena_current)
            return __libc_realloc(p, size);
        /* Memory from the C library grown by rank code moves into the arena. */
        void *q = malloc(size);
        if (q) {
            size_t have = libc_usable_size(p);
            memcpy(q, p, have < size ? have : size);
            __libc_free(p);
        }
        return q;
    }
    size_t have = sched_arena_usable(p);
    if (size <= have && size >= have / 2) {
        sched_arena_resize(p, size);
        return p;
    }
    sched_arena *a = sched_arena_current ? sched_arena_current : sched_arena_owning(p);
    void *q = sched_arena_malloc(a, size);
    if (!q)
        return NULL;
    memcpy(q, p, have < size ? have : size);
    sched_arena_free(p);
    return q;
}

static void *aligned(size_t align, size_t size) {
    sched_arena *a = sched_arena_current;
    return a ? sched_arena_memalign(a, align, size) : __libc_memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size) {
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    void *p = aligned(align, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t size) {
    if (align == 0 || (align & (align - 1))) {
        errno = EINVAL;
        return NULL;
    }
    return aligned(align, size);
}

void *memalign(size_t align, size_t size) {
    return aligned(align, size);
}

void *valloc(size_t size) {
    return aligned(4096, size);
}

void *pvalloc(size_t size) {
    return aligned(4096, (size + 4095) & ~(size_t)4095);
}

size_t malloc_usable_size(void *p) {
    if (!p)
        return 0;
    return sched_arena_owning(p) ? sched_arena_usable(p) : libc_usable_size(p);
}

#endif /* ORDEX_NO_HEAP_INTERPOSE */
