/*
 * ordex_api.c - the functions of ordex.h that programs call.
 */
#include <string.h>

#include "simulator/sim_internal.h"

void ordex_observe(const char *name, const void *ptr, size_t size);
void ordex_compute(double seconds);

static void observed_free(gpointer p) {
    sim_observed *o = p;
    g_free(o->final);
    g_free(o);
}

void sim_observe_snapshot(sim_proc *p) {
    for (guint i = 0; p->observed && i < p->observed->len; i++) {
        sim_observed *o = g_ptr_array_index(p->observed, i);
        g_free(o->final);
        o->final = g_memdup2(o->ptr, o->size);
    }
}

void ordex_observe(const char *name, const void *ptr, size_t size) {
    sim_call_enter("ordex_observe", __builtin_return_address(0), __builtin_frame_address(0));
    sim_proc *p = sim_proc_of(sim_self());
    if (!p->observed)
        p->observed = g_ptr_array_new_with_free_func(observed_free);
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
