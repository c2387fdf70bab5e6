/* TEMPORARY local stand-in until the tsan branch is merged. */
#include "scheduler/access_hook.h"
void sched_access_set_hook(sched_access_fn fn, void *user) {
    (void)fn;
    (void)user;
}
void sched_access_mark(const void *addr, size_t len) {
    (void)addr;
    (void)len;
}
void sched_access_unmark(const void *addr, size_t len) {
    (void)addr;
    (void)len;
}
bool sched_access_instrumented(void) {
    return false;
}
