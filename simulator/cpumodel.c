/*
 * cpumodel.c - processor sharing of each node's cores (see cpumodel.h).
 *
 * Every job on a node progresses at the node's one rate, which changes only
 * when a job starts or finishes there.  So a job's finish time,
 * updated + remaining / rate, stays right until its node's next start or
 * finish, and the first finish over all jobs is the next event: unlike the
 * network, no look-ahead is needed.
 */
#include "simulator/cpumodel.h"

#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct cpu_job {
    uint64_t id;
    int node;
    double work;
    double remaining; /* as of the node's `updated` */
    double finish;
} cpu_job;

typedef struct cpu_node {
    int runnable;
    double rate;
    double updated; /* remaining work and accounting are exact up to here */
    double busy, work_done;
} cpu_node;

struct sim_cpu {
    int nnodes, cores;
    double speed;
    cpu_node *nodes;
    GArray *jobs;    /* cpu_job, in id order */
    GArray *pending; /* sim_cpu_completion found while starting a job */
    double now;
    uint64_t last_id;
};

double sim_cpu_share(int runnable, int cores, double speed) {
    if (runnable <= cores)
        return speed;
    return speed * ((double)cores / runnable);
}

sim_cpu *sim_cpu_new(int nodes, int cores_per_node, double speed) {
    g_return_val_if_fail(nodes >= 1 && cores_per_node >= 1 && speed > 0 && isfinite(speed), NULL);
    sim_cpu *cpu = g_new0(sim_cpu, 1);
    cpu->nnodes = nodes;
    cpu->cores = cores_per_node;
    cpu->speed = speed;
    cpu->nodes = g_new0(cpu_node, nodes);
    for (int n = 0; n < nodes; n++)
        cpu->nodes[n].rate = speed;
    cpu->jobs = g_array_new(FALSE, FALSE, sizeof(cpu_job));
    cpu->pending = g_array_new(FALSE, FALSE, sizeof(sim_cpu_completion));
    return cpu;
}

void sim_cpu_free(sim_cpu *cpu) {
    if (!cpu)
        return;
    g_free(cpu->nodes);
    g_array_free(cpu->jobs, TRUE);
    g_array_free(cpu->pending, TRUE);
    g_free(cpu);
}

/* Brings a node's jobs and accounting up to t at the current rate. */
static void settle(sim_cpu *cpu, int node, double t) {
    cpu_node *nd = &cpu->nodes[node];
    double dt = t - nd->updated;
    if (dt <= 0)
        return;
    if (nd->runnable > 0) {
        nd->busy += dt;
        nd->work_done += nd->rate * dt * nd->runnable;
        for (guint i = 0; i < cpu->jobs->len; i++) {
            cpu_job *j = &g_array_index(cpu->jobs, cpu_job, i);
            if (j->node == node)
                j->remaining -= nd->rate * dt;
        }
    }
    nd->updated = t;
}

/* New rate for a node whose job count just changed at t (already settled). */
static void rerate(sim_cpu *cpu, int node, double t) {
    cpu_node *nd = &cpu->nodes[node];
    nd->rate = sim_cpu_share(nd->runnable, cpu->cores, cpu->speed);
    for (guint i = 0; i < cpu->jobs->len; i++) {
        cpu_job *j = &g_array_index(cpu->jobs, cpu_job, i);
        if (j->node == node)
            j->finish = t + fmax(0, j->remaining) / nd->rate;
    }
}

/* Finishes every job due at or before `limit`, event by event. */
static void run(sim_cpu *cpu, double limit, GArray *done) {
    bool *touched = g_new0(bool, cpu->nnodes);
    for (;;) {
        double t = INFINITY;
        for (guint i = 0; i < cpu->jobs->len; i++)
            t = fmin(t, g_array_index(cpu->jobs, cpu_job, i).finish);
        if (isinf(t) || t > limit)
            break;
        /* Several nodes may finish jobs at the same instant; settle them all
         * before removing any job so each node's accounting sees its jobs. */
        for (guint i = 0; i < cpu->jobs->len; i++) {
            const cpu_job *j = &g_array_index(cpu->jobs, cpu_job, i);
            if (j->finish <= t && !touched[j->node]) {
                touched[j->node] = true;
                settle(cpu, j->node, t);
            }
        }
        /* A job within rounding of its end finishes with the due ones rather
         * than an ulp later as an event of its own. */
        for (guint i = 0; i < cpu->jobs->len;) {
            const cpu_job *j = &g_array_index(cpu->jobs, cpu_job, i);
            if (touched[j->node] && (j->finish <= t || j->remaining <= j->work * 1e-12 + 1e-15)) {
                sim_cpu_completion c = {j->id, t};
                g_array_append_val(done, c);
                cpu->nodes[j->node].runnable--;
                g_array_remove_index(cpu->jobs, i);
            } else {
                i++;
            }
        }
        for (int n = 0; n < cpu->nnodes; n++)
            if (touched[n]) {
                rerate(cpu, n, t);
                touched[n] = false;
            }
    }
    g_free(touched);
}

static void move_to(sim_cpu *cpu, double time, GArray *done) {
    run(cpu, time, done);
    for (int n = 0; n < cpu->nnodes; n++)
        settle(cpu, n, time);
    cpu->now = time;
}

uint64_t sim_cpu_start(sim_cpu *cpu, double time, int node, double work) {
    g_return_val_if_fail(cpu != NULL && isfinite(time) && time >= cpu->now, 0);
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes && work >= 0 && isfinite(work), 0);
    move_to(cpu, time, cpu->pending);
    uint64_t id = ++cpu->last_id;
    if (work == 0) {
        sim_cpu_completion c = {id, time};
        g_array_append_val(cpu->pending, c);
        return id;
    }
    cpu_job j = {.id = id, .node = node, .work = work, .remaining = work};
    g_array_append_val(cpu->jobs, j);
    cpu->nodes[node].runnable++;
    rerate(cpu, node, time);
    return id;
}

bool sim_cpu_next(sim_cpu *cpu, uint64_t *id, double *time) {
    g_return_val_if_fail(cpu != NULL, false);
    if (cpu->pending->len > 0) {
        const sim_cpu_completion *c = &g_array_index(cpu->pending, sim_cpu_completion, 0);
        *id = c->id;
        *time = c->time;
        return true;
    }
    /* Jobs are in id order, so the strict < keeps the lowest id on a tie. */
    bool found = false;
    for (guint i = 0; i < cpu->jobs->len; i++) {
        const cpu_job *j = &g_array_index(cpu->jobs, cpu_job, i);
        if (!found || j->finish < *time) {
            *id = j->id;
            *time = j->finish;
            found = true;
        }
    }
    return found;
}

int sim_cpu_advance(sim_cpu *cpu, double time, GArray *done) {
    g_return_val_if_fail(cpu != NULL && done != NULL && isfinite(time) && time >= cpu->now, 0);
    guint before = done->len;
    g_array_append_vals(done, cpu->pending->data, cpu->pending->len);
    g_array_set_size(cpu->pending, 0);
    move_to(cpu, time, done);
    return (int)(done->len - before);
}

double sim_cpu_now(const sim_cpu *cpu) {
    return cpu->now;
}

int sim_cpu_runnable(const sim_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    return cpu->nodes[node].runnable;
}

double sim_cpu_rate(const sim_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    return cpu->nodes[node].rate;
}

double sim_cpu_busy(const sim_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    return cpu->nodes[node].busy;
}

double sim_cpu_work_done(const sim_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    return cpu->nodes[node].work_done;
}
