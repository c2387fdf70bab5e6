/*
 * arena.h - per-rank heaps.
 *
 * Every rank's malloc family calls are served from that rank's arena: a
 * fixed slice of one large reserved address range, so a rank's heap
 * addresses depend only on its own sequence of allocations (deterministic
 * across runs and orderings) and a rank's heap is easy to snapshot and hash.
 *
 * ordex itself (GLib included) allocates from the C library's heap.  The
 * process-wide malloc/free symbols (heap_malloc.c) dispatch on the current
 * arena: the scheduler sets it when it resumes rank code, the simulator
 * clears it on entry to every MPI call and restores it on return.  free and
 * realloc dispatch on the address, so memory may be freed from either side.
 */
#ifndef ORDEX_SCHED_ARENA_H
#define ORDEX_SCHED_ARENA_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sched_arena sched_arena;

/* Reserves address space for nranks arenas of per_rank bytes each (rounded
 * up to whole pages).  Returns false (errno set) when the range cannot be
 * reserved: also when nranks < 1, per_rank is 0, or the total passes the
 * 128 TiB of a process's address space (or SIZE_MAX). */
bool sched_arenas_reserve(int nranks, size_t per_rank);
void sched_arenas_release(void);

sched_arena *sched_arena_of(int rank);

/* The reserved range of all arenas and how many there are (NULL, 0 and 0
 * when none is reserved). */
void sched_arenas_span(const void **start, size_t *len, int *count);

/* The arena new allocations come from; NULL = the C library's heap. */
extern sched_arena *sched_arena_current;

void *sched_arena_malloc(sched_arena *a, size_t size);
void *sched_arena_memalign(sched_arena *a, size_t align, size_t size);
void sched_arena_free(void *p);
size_t sched_arena_usable(const void *p);

/* The arena holding p, or NULL when p is not in any arena. */
sched_arena *sched_arena_owning(const void *p);

/* Bytes in use and the high-water mark of the arena's touched range. */
size_t sched_arena_in_use(const sched_arena *a);
size_t sched_arena_extent(const sched_arena *a);

/* First address of the arena. */
const void *sched_arena_base(const sched_arena *a);

/* True when an allocation has failed because the arena is full. */
bool sched_arena_exhausted(const sched_arena *a);

/* The size asked for by the last request (malloc, memalign) the arena
 * could not serve, or 0 when it never refused one. */
size_t sched_arena_refused(const sched_arena *a);

/* Bytes of address space of the arena (its heap limit). */
size_t sched_arena_size(const sched_arena *a);

/* realloc kept p where it is: the program now asks for size bytes of it
 * (at most sched_arena_usable(p)). */
void sched_arena_resize(void *p, size_t size);

/* A block of the malloc family: where it starts, the bytes the program
 * asked for, and the bytes the allocator gave (size rounded up). */
typedef struct sched_heap_block {
    const void *start;
    size_t size;
    size_t usable;
} sched_heap_block;

typedef enum sched_heap_where {
    SCHED_HEAP_NONE,  /* not in any arena's allocated range, or in the allocator's own
                         bytes (a header, the padding before an aligned block) */
    SCHED_HEAP_BLOCK, /* in a live block (out filled): from its start to the end of its
                         usable bytes, or in the header that follows them (just past it) */
    SCHED_HEAP_FREED, /* in a freed chunk */
} sched_heap_where;

/* What the arena address p belongs to.  Costs a scan of the page table back
 * to the chunk that holds p (long only inside a large block) and a walk of
 * at most a page of chunks. */
sched_heap_where sched_arena_block_of(const void *p, sched_heap_block *out);

/* Whether a block of `size` requested bytes still starts at `start` (what
 * an earlier sched_arena_block_of found is still allocated, the same). */
bool sched_arena_block_is(const void *start, size_t size);

#endif
