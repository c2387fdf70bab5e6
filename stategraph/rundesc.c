/*
 * rundesc.c - the run description (see rundesc.h).
 */
#include "stategraph/rundesc.h"

#include <glib.h>
#include <malloc.h>
#include <signal.h>
#include <string.h>

void sg_rundesc_init(sg_rundesc *d) {
    memset(d, 0, sizeof *d);
    d->stack_size = SG_RUN_DEFAULT_STACK;
    d->heap_size = SG_RUN_DEFAULT_HEAP;
    d->step_timeout_s = SG_RUN_DEFAULT_STEP_TIMEOUT;
    d->send_mode = SIM_SEND_EAGER_BELOW_LIMIT;
    d->eager_limit = SG_RUN_DEFAULT_EAGER_LIMIT;
    d->out = stdout;
    d->err = stderr;
}

bool sg_type_check_parse(const char *text, sim_type_check *out) {
    static const struct {
        const char *name;
        sim_type_check mode;
    } modes[] = {{"error", SIM_TYPE_CHECK_ERROR},
                 {"warn", SIM_TYPE_CHECK_WARN},
                 {"off", SIM_TYPE_CHECK_OFF}};
    for (size_t i = 0; text && i < G_N_ELEMENTS(modes); i++)
        if (strcmp(text, modes[i].name) == 0) {
            *out = modes[i].mode;
            return true;
        }
    return false;
}

const char *sg_type_check_name(sim_type_check mode) {
    return mode == SIM_TYPE_CHECK_WARN ? "warn" : mode == SIM_TYPE_CHECK_OFF ? "off" : "error";
}

void sg_rundesc_sched_options(const sg_rundesc *d, sched_options *so) {
    memset(so, 0, sizeof *so);
    so->nranks = d->nranks;
    so->stack_size = d->stack_size;
    so->heap_size = d->heap_size;
    so->tag_output = d->tag_output;
    so->seed = d->seed;
    so->step_timeout_s = d->step_timeout_s;
    so->keep_files = d->keep_files;
    so->program = d->so;
    so->argc = d->argc;
    so->argv = d->argv;
    so->out = d->out;
    so->err = d->err;
    so->threads = d->threads;
}

void sg_rundesc_sim_config(const sg_rundesc *d, sim_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->nranks = d->nranks;
    cfg->send_mode = d->send_mode;
    cfg->eager_limit = d->eager_limit;
    cfg->seed = d->seed;
    cfg->exploring = d->exploring;
    cfg->async_progress = d->async_progress;
    cfg->early_collectives = d->early_collectives;
    cfg->test_later = d->test_later;
    cfg->rma_separate = d->rma_separate;
    cfg->no_buffer_checks = d->no_buffer_checks;
    cfg->type_check = d->type_check;
}

/* A message's payload is ordex's own allocation, made at the send and freed
 * at the delivery, so a program sending 1 MiB messages allocates and frees
 * 1 MiB per message.  By default glibc hands such chunks back to the kernel
 * (it trims the heap top above 128 KiB, or maps a large chunk on its own), and
 * every payload then faults in fresh pages: most of the time of a
 * simulated ping-pong of 1 MiB messages.  Serving chunks up to 32 MiB from the
 * heap and keeping up to 64 MiB of it free lets each payload reuse the last
 * one's pages. */
static void keep_freed_memory(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

static volatile sig_atomic_t g_run_signal;

void sg_run_interrupt(int sig) {
    if (!g_run_signal)
        g_run_signal = sig;
}

int sg_run_interrupted(void) {
    return g_run_signal;
}

static bool run_interrupted(void) {
    return g_run_signal != 0;
}

bool sg_rundesc_load(const sg_rundesc *d, char **why) {
    if (d->reuse_freed_memory)
        keep_freed_memory();
    sched_options so;
    sg_rundesc_sched_options(d, &so);
    if (sched_init(&so, why)) {
        sched_set_interrupt(run_interrupted);
        return true;
    }
    const char *prog = d->argv ? d->argv[0] : NULL;
    if (prog && strcmp(d->so, prog) != 0) { /* name the user's source, not the cached build */
        char **parts = g_strsplit(*why, d->so, -1);
        g_free(*why);
        *why = g_strjoinv((char *)prog, parts);
        g_strfreev(parts);
    }
    sched_fini();
    return false;
}

static const struct {
    const char *name;
    sim_send_mode mode;
} send_modes[] = {
    {"eager", SIM_SEND_EAGER},
    {"rendezvous", SIM_SEND_RENDEZVOUS},
    {"auto", SIM_SEND_EAGER_BELOW_LIMIT},
};

const char *sg_send_mode_name(sim_send_mode m) {
    for (size_t i = 0; i < sizeof send_modes / sizeof send_modes[0]; i++)
        if (send_modes[i].mode == m)
            return send_modes[i].name;
    return "auto";
}

bool sg_send_mode_parse(const char *name, sim_send_mode *m) {
    for (size_t i = 0; i < sizeof send_modes / sizeof send_modes[0]; i++)
        if (strcmp(send_modes[i].name, name) == 0) {
            *m = send_modes[i].mode;
            return true;
        }
    return false;
}
