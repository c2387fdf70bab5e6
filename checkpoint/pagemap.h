/*
 * pagemap.h - which pages of a range hold data, asked of the kernel.
 *
 * The PAGEMAP_SCAN ioctl of /proc/self/pagemap (Linux 6.7) lists, in one
 * call, the spans of a range whose pages are in memory or in swap: the
 * pages a copy of the range must take, since any other page of an
 * anonymous mapping reads as zeros.  It can also tell anonymous pages from
 * pages of a file.  Older kernels lack it: then the calls below say so and
 * the caller does without.
 */
#ifndef ORDEX_CKPT_PAGEMAP_H
#define ORDEX_CKPT_PAGEMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define CKPT_PAGEMAP_SPANS 256

/* A span of pages [start, end), as the kernel reports it. */
typedef struct ckpt_page_span {
    uint64_t start, end, categories;
} ckpt_page_span;

/* The scanner: its descriptor and the buffer the kernel fills.  It lives
 * wherever its user needs it to (the snapshot code keeps it out of what it
 * copies), so it is a plain struct. */
typedef struct ckpt_pagemap {
    int fd;      /* -1 when closed, or when the kernel lacks the ioctl */
    pid_t owner; /* the process that opened fd: the one whose pages it reads */
    ckpt_page_span spans[CKPT_PAGEMAP_SPANS];
} ckpt_pagemap;

typedef enum ckpt_pagemap_result {
    CKPT_PAGEMAP_DONE,        /* every span was passed to fn */
    CKPT_PAGEMAP_STOPPED,     /* fn returned false, or the scan failed part-way */
    CKPT_PAGEMAP_UNSUPPORTED, /* no scan at all: the kernel lacks the ioctl */
} ckpt_pagemap_result;

/* Opens /proc/self/pagemap.  False when it cannot be opened (pm->fd is -1). */
bool ckpt_pagemap_open(ckpt_pagemap *pm);
void ckpt_pagemap_close(ckpt_pagemap *pm);

/* Makes pm read this process's pages: a descriptor of /proc/self/pagemap
 * opened before a fork reads the parent's in the child.  Call once in each
 * process, before its first scan.  False when it cannot be reopened. */
bool ckpt_pagemap_follow(ckpt_pagemap *pm);

/* Calls fn on every span of pages of [lo, hi) that are in memory or in swap
 * (anonymous_only: and not pages of a file), in address order.  On
 * CKPT_PAGEMAP_UNSUPPORTED the descriptor is closed, so that later calls
 * say so at once.  Touches no memory but pm's and the stack: the snapshot
 * code calls it while it copies the process. */
typedef bool (*ckpt_span_fn)(uintptr_t a, uintptr_t b, void *user);
ckpt_pagemap_result ckpt_pagemap_spans(ckpt_pagemap *pm, uintptr_t lo, uintptr_t hi,
                                       bool anonymous_only, ckpt_span_fn fn, void *user);

#endif
