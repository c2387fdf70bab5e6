/*
 * ordex_api.c - the functions of ordex.h that programs call.
 */
#include <string.h>

#include "simulator/sim_internal.h"

void ordex_observe(const char *name, const void *ptr, size_t size);
void ordex_compute(double seconds);

void ordex_observe(const char *name, const void *ptr, size_t size) {
    sim_call_enter("ordex_observe", __builtin_return_address(0), __builtin_frame_address(0));
    sim_proc *p = sim_proc_of(sim_self());
    if (!p->observed)
        p->observed = g_ptr_array_new_with_free_func(g_free);
    sim_observed *o = g_new0(sim_observed, 1);
    g_strlcpy(o->name, name ? name : "?", sizeof o->name);
    o->ptr = ptr;
    o->size = size;
    g_ptr_array_add(p->observed, o);
    sim_call_leave();
}

void ordex_compute(double seconds) {
    sim_call_enter("ordex_compute", __builtin_return_address(0), __builtin_frame_address(0));
    if (seconds > 0)
        sim_proc_of(sim_self())->clock += seconds;
    sim_call_leave();
}
