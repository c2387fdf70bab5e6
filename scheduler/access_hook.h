/* TEMPORARY local stand-in until the tsan branch is merged. */
#ifndef ORDEX_SCHED_ACCESS_HOOK_H
#define ORDEX_SCHED_ACCESS_HOOK_H
#include <stdbool.h>
#include <stddef.h>
typedef void (*sched_access_fn)(int rank, void *addr, size_t size, bool is_write, void *pc,
                                void *user);
void sched_access_set_hook(sched_access_fn fn, void *user);
void sched_access_mark(const void *addr, size_t len);
void sched_access_unmark(const void *addr, size_t len);
bool sched_access_instrumented(void);
#endif
