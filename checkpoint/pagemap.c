/*
 * pagemap.c - the PAGEMAP_SCAN ioctl (see pagemap.h).
 */
#define _GNU_SOURCE
#include "checkpoint/pagemap.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The ioctl's argument and numbers, declared here because older C library
 * headers lack them (linux/fs.h, Linux 6.7). */
typedef struct pm_scan_arg { /* every member is read by the kernel */
    // cppcheck-suppress unusedStructMember
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
    // cppcheck-suppress unusedStructMember
    uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
} pm_scan_arg;
_Static_assert(sizeof(ckpt_page_span) == 24, "a span is the kernel's struct page_region");
#define PAGEMAP_SCAN _IOWR('f', 16, pm_scan_arg)
#define PAGE_IS_FILE (1 << 2)
#define PAGE_IS_PRESENT (1 << 3)
#define PAGE_IS_SWAPPED (1 << 4)

bool ckpt_pagemap_open(ckpt_pagemap *pm) {
    pm->fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    pm->owner = getpid();
    return pm->fd >= 0;
}

bool ckpt_pagemap_follow(ckpt_pagemap *pm) {
    if (pm->fd >= 0 && pm->owner == getpid())
        return true;
    ckpt_pagemap_close(pm);
    return ckpt_pagemap_open(pm);
}

void ckpt_pagemap_close(ckpt_pagemap *pm) {
    if (pm->fd >= 0)
        close(pm->fd);
    pm->fd = -1;
}

ckpt_pagemap_result ckpt_pagemap_spans(ckpt_pagemap *pm, uintptr_t lo, uintptr_t hi,
                                       bool anonymous_only, ckpt_span_fn fn, void *user) {
    if (pm->fd < 0)
        return CKPT_PAGEMAP_UNSUPPORTED;
    pm_scan_arg a = {.size = sizeof a,
                     .start = lo,
                     .end = hi,
                     .vec = (uint64_t)(uintptr_t)pm->spans,
                     .vec_len = CKPT_PAGEMAP_SPANS,
                     .category_anyof_mask = PAGE_IS_PRESENT | PAGE_IS_SWAPPED,
                     .return_mask = PAGE_IS_PRESENT | PAGE_IS_SWAPPED};
    if (anonymous_only) { /* "not a file's page": the category inverted, then required */
        a.category_inverted = PAGE_IS_FILE;
        a.category_mask = PAGE_IS_FILE;
    }
    for (;;) {
        int n = ioctl(pm->fd, PAGEMAP_SCAN, &a);
        if (n < 0) {
            if (a.start != lo)
                return CKPT_PAGEMAP_STOPPED;
            ckpt_pagemap_close(pm);
            return CKPT_PAGEMAP_UNSUPPORTED;
        }
        for (int i = 0; i < n; i++)
            if (!fn(pm->spans[i].start, pm->spans[i].end, user))
                return CKPT_PAGEMAP_STOPPED;
        if (a.walk_end >= hi)
            return CKPT_PAGEMAP_DONE;
        a.start = a.walk_end;
    }
}
