/*
 * remap.c - private mappings made anew (see remap.h).
 */
#define _GNU_SOURCE
#include "checkpoint/remap.h"

#include <glib.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "checkpoint/maps.h"
#include "checkpoint/memsnap.h"
#include "checkpoint/pagemap.h"
#include "scheduler/context.h"

#define SIDE_STACK ((size_t)64 << 10)
#define MAX_MAPPINGS 1024
/* File-backed mappings above this size keep their links: every page of
 * theirs would be copied, the ones never read from the file included. */
#define FILE_COPY_MAX ((uintptr_t)4 << 20)
/* Above this much to copy, the copies cost more than the links (a fork of
 * a process at depth 20 pays about 0.7 us a mapping a level), and each
 * process made anew keeps its own copy of what it shared with its parents. */
#define COPY_MAX ((size_t)16 << 20)

typedef struct mapping {
    uintptr_t start, end;
    int prot;
    bool file; /* file-backed: copied whole; anonymous: where pages are */
} mapping;

/* Everything the copying touches lives here, in a mapping of its own that
 * is never made anew, or on the side stack, which is not either. */
typedef struct remapper {
    ckpt_pagemap pagemap;
    sched_ctx side, caller;
    sigset_t mask; /* the caller's, while the side stack runs */
    int nmappings;
    mapping mappings[MAX_MAPPINGS];
    int made;             /* by the last run */
    unsigned char *fresh; /* the copy being filled */
    uintptr_t from;       /* the address it will replace */
} remapper;

static remapper *g_rm;
/* Forks since this process's mappings were made anew (inherited). */
static int g_forks;

static void side_main(void *unused);

void ckpt_remap_init(void) {
    if (g_rm || ckpt_mem_unavailable() || sched_ctx_threads())
        return;
    remapper *rm =
        mmap(NULL, sizeof *rm, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (rm == MAP_FAILED)
        return;
    if (!ckpt_pagemap_open(&rm->pagemap) ||
        !sched_ctx_make(&rm->side, SIDE_STACK, side_main, NULL)) {
        ckpt_pagemap_close(&rm->pagemap);
        munmap(rm, sizeof *rm);
        return;
    }
    g_rm = rm;
    g_forks = 0;
}

static bool is_own(const remapper *rm, uintptr_t a, uintptr_t b) {
    uintptr_t side = (uintptr_t)rm->side.stack_base;
    uintptr_t side_end = side + rm->side.guard_size + rm->side.stack_size;
    uintptr_t self = (uintptr_t)rm;
    return (a < self + sizeof *rm && self < b) || (a < side_end && side < b);
}

static bool found(uintptr_t a, uintptr_t b, void *user) {
    *(bool *)user = true;
    return false;
}

/* True when [a, b) holds anonymous pages (those carry the links). */
static bool has_anonymous_pages(remapper *rm, uintptr_t a, uintptr_t b) {
    bool any = false;
    ckpt_pagemap_spans(&rm->pagemap, a, b, true, found, &any);
    return any;
}

static bool count_span(uintptr_t a, uintptr_t b, void *user) {
    *(size_t *)user += b - a;
    return true;
}

typedef struct lister {
    remapper *rm;
    size_t to_copy;
} lister;

static bool list_mapping(const ckpt_mapping *m, void *user) {
    lister *ls = user;
    remapper *rm = ls->rm;
    if (rm->nmappings == MAX_MAPPINGS)
        return false;
    if (!m->read || !m->private_ || (!m->write && m->exec))
        return true; /* unreadable, shared, or code */
    if (m->name[0] == '[' && strcmp(m->name, "[heap]") != 0)
        return true; /* the main stack, the kernel's own */
    if (is_own(rm, m->start, m->end))
        return true;
    if ((m->file || !m->write) &&
        (m->end - m->start > FILE_COPY_MAX || !has_anonymous_pages(rm, m->start, m->end)))
        return true; /* relocated read-only data and written file data only */
    if (m->file)
        ls->to_copy += m->end - m->start;
    else
        ckpt_pagemap_spans(&rm->pagemap, m->start, m->end, false, count_span, &ls->to_copy);
    if (ls->to_copy > COPY_MAX) {
        rm->nmappings = 0;
        return false;
    }
    int prot = PROT_READ | (m->write ? PROT_WRITE : 0) | (m->exec ? PROT_EXEC : 0);
    rm->mappings[rm->nmappings++] = (mapping){m->start, m->end, prot, m->file};
    return true;
}

/* Lists the mappings to make anew.  Lists none when they hold more than
 * COPY_MAX bytes to copy.  Runs before the copying, on the caller's stack:
 * it allocates. */
static void list_mappings(remapper *rm) {
    rm->nmappings = 0;
    lister ls = {rm, 0};
    ckpt_maps_each(list_mapping, &ls);
}

static bool copy_span(uintptr_t a, uintptr_t b, void *user) {
    remapper *rm = user;
    memcpy(rm->fresh + (a - rm->from), (const void *)a, b - a);
    return true;
}

/* Copies a file-backed mapping whole.  Through the kernel: a page past the
 * end of the file fails the copy instead of raising SIGBUS, which is
 * blocked here and would end the process. */
static bool copy_file_mapping(void *fresh, const mapping *m) {
    size_t len = m->end - m->start;
    struct iovec to = {fresh, len}, from = {(void *)m->start, len};
    return syscall(SYS_process_vm_readv, (long)getpid(), &to, 1L, &from, 1L, 0L) == (long)len;
}

/* Copies m into a new mapping and puts that in its place.  Raw system
 * calls: the C library's wrappers are ordex's own counting ones (memsnap.c),
 * whose counter may lie in a mapping already copied.  (Arguments are passed
 * as long: syscall() reads every one as such.) */
static void remap_one(remapper *rm, const mapping *m) {
    size_t len = m->end - m->start;
    void *fresh = (void *)syscall(SYS_mmap, 0L, len, (long)(PROT_READ | PROT_WRITE),
                                  (long)(MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE), -1L, 0L);
    if (fresh == MAP_FAILED)
        return;
    rm->fresh = fresh;
    rm->from = m->start;
    bool copied = m->file ? copy_file_mapping(fresh, m)
                          : ckpt_pagemap_spans(&rm->pagemap, m->start, m->end, false, copy_span,
                                               rm) == CKPT_PAGEMAP_DONE;
    if (!copied ||
        (m->prot != (PROT_READ | PROT_WRITE) &&
         syscall(SYS_mprotect, fresh, len, (long)m->prot) != 0) ||
        (void *)syscall(SYS_mremap, fresh, len, len, (long)(MREMAP_MAYMOVE | MREMAP_FIXED),
                        m->start) == MAP_FAILED) {
        syscall(SYS_munmap, fresh, len);
        return;
    }
    rm->made++;
}

static void side_main(void *unused) {
    remapper *rm = g_rm;
    rm->made = 0;
    for (int i = 0; i < rm->nmappings; i++)
        remap_one(rm, &rm->mappings[i]);
    sched_ctx_switch(&rm->side, &rm->caller);
    __builtin_unreachable();
}

int ckpt_remap_now(void) {
    remapper *rm = g_rm;
    if (!rm)
        return 0;
    if (!ckpt_pagemap_follow(&rm->pagemap)) /* this process's pages, not its parent's */
        return 0;
    list_mappings(rm);
    /* A signal handler (the step timer's) must not write memory between
     * its copy and its replacement. */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &rm->mask);
    sched_ctx_prepare(&rm->side, side_main, NULL);
    sched_ctx_switch(&rm->caller, &rm->side);
    pthread_sigmask(SIG_SETMASK, &rm->mask, NULL);
    g_forks = 0;
    return rm->made;
}

void ckpt_remap_before_fork(void) {
    if (g_rm && g_forks >= CKPT_REMAP_AFTER_FORKS)
        ckpt_remap_now();
}

void ckpt_remap_forked(void) {
    g_forks++;
}
