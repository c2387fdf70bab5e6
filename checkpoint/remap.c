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

/* Lists the mappings to make anew, from /proc/self/maps.  Lists none when
 * they hold more than COPY_MAX bytes to copy.  Runs before the copying, on
 * the caller's stack: it allocates. */
static void list_mappings(remapper *rm) {
    rm->nmappings = 0;
    char *maps = NULL;
    if (!g_file_get_contents("/proc/self/maps", &maps, NULL, NULL))
        return;
    size_t to_copy = 0;
    for (char *line = maps, *next; line && *line && rm->nmappings < MAX_MAPPINGS; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        unsigned long a, b, inode = 0;
        char perms[8] = "";
        int used = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %lu %n", &a, &b, perms, &inode, &used) < 4)
            continue;
        const char *name = line + used;
        bool writable = perms[1] == 'w';
        if (perms[0] != 'r' || perms[3] != 'p' || (!writable && perms[2] == 'x'))
            continue; /* unreadable, shared, or code */
        if (name[0] == '[' && strcmp(name, "[heap]") != 0)
            continue; /* the main stack, the kernel's own */
        if (is_own(rm, a, b))
            continue;
        bool file = inode != 0;
        if ((file || !writable) && (b - a > FILE_COPY_MAX || !has_anonymous_pages(rm, a, b)))
            continue; /* relocated read-only data and written file data only */
        if (file)
            to_copy += b - a;
        else
            ckpt_pagemap_spans(&rm->pagemap, a, b, false, count_span, &to_copy);
        if (to_copy > COPY_MAX) {
            rm->nmappings = 0;
            break;
        }
        int prot = PROT_READ | (writable ? PROT_WRITE : 0) | (perms[2] == 'x' ? PROT_EXEC : 0);
        rm->mappings[rm->nmappings++] = (mapping){a, b, prot, file};
    }
    g_free(maps);
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
