/*
 * cpumodel.c - processor sharing of each node's cores (see cpumodel.h).
 *
 * Every job on a node progresses at the node's one rate, which changes only
 * when a job starts or finishes there.  So each node keeps a virtual clock:
 * the work that any one of its jobs has done since the clock's origin.  A
 * job that starts when the clock reads v with w seconds of work is done when
 * it reads v + w, whatever the rates in between; the order in which a
 * node's jobs finish is fixed when they start, and they sit in a min-heap
 * by that virtual finish.  The node's first finish in wall time,
 * updated + (vfinish - vclock) / rate, changes only when the node's own
 * jobs change, and the nodes with jobs sit in a min-heap by it.  So the
 * first finish over all jobs is the next event (unlike the network, no
 * look-ahead is needed), and a start or a finish costs O(log jobs on the
 * node + log nodes): nothing else is touched.  Busy time and work done are
 * settled lazily, per node, when its rate is about to change, and read
 * exactly up to pm_cpu_now from the node's rate.
 *
 * Precision: a job's remaining work is vfinish - vclock, rounded at the
 * clock's scale.  The clock restarts at 0 when the node empties and grows
 * at most at `speed` per second, so that rounding is at the scale of the
 * wall clock's own (an ulp of the time, times speed / rate), which bounds
 * any finish time anyway.
 */
#include "perfmodel/cpumodel.h"

#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct cpu_job {
    uint64_t id;
    double vfinish; /* the node's virtual clock when the job is done */
    double work;
} cpu_job;

typedef struct cpu_node {
    int runnable; /* jobs */
    int pollers;  /* ranks that take a core without doing work (busy waiting) */
    double rate;
    double updated;         /* the virtual clock and the accounting are exact up to here */
    double vclock;          /* work done by each job from the clock's origin to `updated` */
    double busy, work_done; /* up to `updated` */
    double next;            /* wall time of the first finish, while runnable > 0 */
    GArray *jobs;           /* cpu_job, a binary min-heap by (vfinish, id) */
    int heap_pos;           /* index in pm_cpu.heap, -1 while runnable == 0 */
} cpu_node;

struct pm_cpu {
    int nnodes, cores;
    double speed;
    cpu_node *nodes;
    int *heap; /* the nodes with jobs, a binary min-heap by (next, first job's id) */
    int nheap;
    GArray *pending; /* pm_cpu_completion found while starting a job */
    GArray *batch;   /* scratch: the completions of one instant */
    double now;
    uint64_t last_id;
};

double pm_cpu_share(int runnable, int cores, double speed) {
    if (runnable <= cores)
        return speed;
    return speed * ((double)cores / runnable);
}

pm_cpu *pm_cpu_new(int nodes, int cores_per_node, double speed) {
    g_return_val_if_fail(nodes >= 1 && cores_per_node >= 1 && speed > 0 && isfinite(speed), NULL);
    pm_cpu *cpu = g_new0(pm_cpu, 1);
    cpu->nnodes = nodes;
    cpu->cores = cores_per_node;
    cpu->speed = speed;
    cpu->nodes = g_new0(cpu_node, nodes);
    for (int n = 0; n < nodes; n++) {
        cpu->nodes[n].rate = speed;
        cpu->nodes[n].jobs = g_array_new(FALSE, FALSE, sizeof(cpu_job));
        cpu->nodes[n].heap_pos = -1;
    }
    cpu->heap = g_new0(int, nodes);
    cpu->pending = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    cpu->batch = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    return cpu;
}

void pm_cpu_free(pm_cpu *cpu) {
    if (!cpu)
        return;
    for (int n = 0; n < cpu->nnodes; n++)
        g_array_free(cpu->nodes[n].jobs, TRUE);
    g_free(cpu->nodes);
    g_free(cpu->heap);
    g_array_free(cpu->pending, TRUE);
    g_array_free(cpu->batch, TRUE);
    g_free(cpu);
}

/* ---------------------------------------------------------------------- */
/* A node's jobs: a min-heap by virtual finish, the lowest id on a tie     */

static bool job_before(const cpu_job *a, const cpu_job *b) {
    return a->vfinish < b->vfinish || (a->vfinish == b->vfinish && a->id < b->id);
}

static void jobs_sift_down(GArray *jobs, guint i) {
    cpu_job *v = (cpu_job *)jobs->data;
    guint n = jobs->len;
    for (;;) {
        guint l = 2 * i + 1, m = i;
        if (l < n && job_before(&v[l], &v[m]))
            m = l;
        if (l + 1 < n && job_before(&v[l + 1], &v[m]))
            m = l + 1;
        if (m == i)
            return;
        cpu_job tmp = v[i];
        v[i] = v[m];
        v[m] = tmp;
        i = m;
    }
}

static void jobs_push(GArray *jobs, const cpu_job *j) {
    g_array_append_val(jobs, *j);
    cpu_job *v = (cpu_job *)jobs->data;
    for (guint i = jobs->len - 1; i > 0;) {
        guint p = (i - 1) / 2;
        if (!job_before(&v[i], &v[p]))
            break;
        cpu_job tmp = v[i];
        v[i] = v[p];
        v[p] = tmp;
        i = p;
    }
}

static void jobs_pop(GArray *jobs) {
    cpu_job *v = (cpu_job *)jobs->data;
    v[0] = v[jobs->len - 1];
    g_array_set_size(jobs, jobs->len - 1);
    jobs_sift_down(jobs, 0);
}

static const cpu_job *jobs_first(const cpu_node *nd) {
    return &g_array_index(nd->jobs, cpu_job, 0);
}

/* ---------------------------------------------------------------------- */
/* The nodes with jobs: a min-heap by first finish, the lowest id on a tie */

static bool node_before(const pm_cpu *cpu, int a, int b) {
    const cpu_node *x = &cpu->nodes[a], *y = &cpu->nodes[b];
    return x->next < y->next || (x->next == y->next && jobs_first(x)->id < jobs_first(y)->id);
}

static void heap_put(pm_cpu *cpu, int i, int node) {
    cpu->heap[i] = node;
    cpu->nodes[node].heap_pos = i;
}

static void heap_sift_up(pm_cpu *cpu, int i) {
    int node = cpu->heap[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!node_before(cpu, node, cpu->heap[p]))
            break;
        heap_put(cpu, i, cpu->heap[p]);
        i = p;
    }
    heap_put(cpu, i, node);
}

static void heap_sift_down(pm_cpu *cpu, int i) {
    int node = cpu->heap[i];
    for (;;) {
        int l = 2 * i + 1, m = l;
        if (l >= cpu->nheap)
            break;
        if (l + 1 < cpu->nheap && node_before(cpu, cpu->heap[l + 1], cpu->heap[l]))
            m = l + 1;
        if (!node_before(cpu, cpu->heap[m], node))
            break;
        heap_put(cpu, i, cpu->heap[m]);
        i = m;
    }
    heap_put(cpu, i, node);
}

static void heap_remove(pm_cpu *cpu, int node) {
    int i = cpu->nodes[node].heap_pos;
    cpu->nodes[node].heap_pos = -1;
    int last = cpu->heap[--cpu->nheap];
    if (last == node)
        return;
    heap_put(cpu, i, last);
    heap_sift_up(cpu, i);
    heap_sift_down(cpu, cpu->nodes[last].heap_pos);
}

/* Places a node whose key may have changed (or that just got jobs). */
static void heap_update(pm_cpu *cpu, int node) {
    int i = cpu->nodes[node].heap_pos;
    if (i < 0) {
        i = cpu->nheap++;
        heap_put(cpu, i, node);
    }
    heap_sift_up(cpu, i);
    heap_sift_down(cpu, cpu->nodes[node].heap_pos);
}

/* ---------------------------------------------------------------------- */
/* Nodes                                                                   */

/* Brings a node's virtual clock and accounting up to t at the current rate. */
static void settle(cpu_node *nd, double t) {
    double dt = t - nd->updated;
    if (dt <= 0)
        return;
    if (nd->runnable > 0) {
        nd->busy += dt;
        nd->work_done += nd->rate * dt * nd->runnable;
        nd->vclock += nd->rate * dt;
    }
    nd->updated = t;
}

/* New rate and first finish of a settled node whose jobs just changed. */
static void refresh(pm_cpu *cpu, int node) {
    cpu_node *nd = &cpu->nodes[node];
    nd->rate = pm_cpu_share(nd->runnable + nd->pollers, cpu->cores, cpu->speed);
    if (nd->runnable == 0) {
        nd->vclock = 0;
        if (nd->heap_pos >= 0)
            heap_remove(cpu, node);
        return;
    }
    nd->next = nd->updated + fmax(0, jobs_first(nd)->vfinish - nd->vclock) / nd->rate;
    heap_update(cpu, node);
}

/* Settles a node at t, the time of its first finish, and removes its jobs
 * due by then into cpu->batch.  Due: the finish computed from the rate so
 * far (the same expression as the node's `next`, so at least the first job
 * goes) is not after t, or the remaining work is within rounding of 0 -- a
 * job that close to its end finishes with the due ones rather than an ulp
 * later as an event of its own. */
static void finish_due(pm_cpu *cpu, int node, double t) {
    cpu_node *nd = &cpu->nodes[node];
    double updated = nd->updated, vclock = nd->vclock, rate = nd->rate;
    settle(nd, t);
    while (nd->jobs->len > 0) {
        const cpu_job *j = jobs_first(nd);
        bool due = updated + fmax(0, j->vfinish - vclock) / rate <= t ||
                   j->vfinish - nd->vclock <= j->work * 1e-12 + 1e-15;
        if (!due)
            break;
        pm_cpu_completion c = {j->id, t};
        g_array_append_val(cpu->batch, c);
        jobs_pop(nd->jobs);
        nd->runnable--;
    }
    refresh(cpu, node);
}

static int by_id(const void *a, const void *b) {
    const pm_cpu_completion *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Finishes every job due at or before `limit`, instant by instant; the jobs
 * of one instant (on any node) are appended in id order. */
static void run(pm_cpu *cpu, double limit, GArray *done) {
    while (cpu->nheap > 0) {
        double t = cpu->nodes[cpu->heap[0]].next;
        if (t > limit)
            break;
        g_array_set_size(cpu->batch, 0);
        /* A node may come back at t when its next job ends less than an ulp
         * of t later; it then finishes that job too, so this ends. */
        while (cpu->nheap > 0 && cpu->nodes[cpu->heap[0]].next <= t)
            finish_due(cpu, cpu->heap[0], t);
        g_array_sort(cpu->batch, by_id);
        g_array_append_vals(done, cpu->batch->data, cpu->batch->len);
    }
}

static void move_to(pm_cpu *cpu, double time, GArray *done) {
    run(cpu, time, done);
    cpu->now = time;
}

/* ---------------------------------------------------------------------- */
/* Public operations                                                       */

uint64_t pm_cpu_start(pm_cpu *cpu, double time, int node, double work) {
    g_return_val_if_fail(cpu != NULL && isfinite(time) && time >= cpu->now, 0);
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes && work >= 0 && isfinite(work), 0);
    move_to(cpu, time, cpu->pending);
    uint64_t id = ++cpu->last_id;
    if (work == 0) {
        pm_cpu_completion c = {id, time};
        g_array_append_val(cpu->pending, c);
        return id;
    }
    cpu_node *nd = &cpu->nodes[node];
    settle(nd, time);
    cpu_job j = {.id = id, .vfinish = nd->vclock + work, .work = work};
    jobs_push(nd->jobs, &j);
    nd->runnable++;
    refresh(cpu, node);
    return id;
}

bool pm_cpu_set_pollers(pm_cpu *cpu, double time, int node, int pollers) {
    g_return_val_if_fail(cpu != NULL && isfinite(time) && time >= cpu->now, false);
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes && pollers >= 0, false);
    move_to(cpu, time, cpu->pending);
    cpu_node *nd = &cpu->nodes[node];
    bool same_rate = pm_cpu_share(nd->runnable + pollers, cpu->cores, cpu->speed) == nd->rate;
    if (nd->runnable > 0 && !same_rate)
        settle(nd, time);
    nd->pollers = pollers;
    /* On a node with a core for everyone (the common case: a rank polls in
     * every blocking call) nothing else changes. */
    if (!same_rate)
        refresh(cpu, node);
    return true;
}

int pm_cpu_pollers(const pm_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    return cpu->nodes[node].pollers;
}

bool pm_cpu_next(pm_cpu *cpu, uint64_t *id, double *time) {
    g_return_val_if_fail(cpu != NULL, false);
    if (cpu->pending->len > 0) {
        const pm_cpu_completion *c = &g_array_index(cpu->pending, pm_cpu_completion, 0);
        *id = c->id;
        *time = c->time;
        return true;
    }
    if (cpu->nheap == 0)
        return false;
    const cpu_node *nd = &cpu->nodes[cpu->heap[0]];
    *id = jobs_first(nd)->id;
    *time = nd->next;
    return true;
}

int pm_cpu_advance(pm_cpu *cpu, double time, GArray *done) {
    g_return_val_if_fail(cpu != NULL && done != NULL && isfinite(time) && time >= cpu->now, 0);
    guint before = done->len;
    g_array_append_vals(done, cpu->pending->data, cpu->pending->len);
    g_array_set_size(cpu->pending, 0);
    move_to(cpu, time, done);
    return (int)(done->len - before);
}

double pm_cpu_now(const pm_cpu *cpu) {
    return cpu->now;
}

int pm_cpu_runnable(const pm_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    return cpu->nodes[node].runnable;
}

double pm_cpu_rate(const pm_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    return cpu->nodes[node].rate;
}

/* A node is settled only when its own jobs change; the rest of the way to
 * pm_cpu_now it ran at its current rate. */
double pm_cpu_busy(const pm_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    const cpu_node *nd = &cpu->nodes[node];
    return nd->busy + (nd->runnable > 0 ? cpu->now - nd->updated : 0);
}

double pm_cpu_work_done(const pm_cpu *cpu, int node) {
    g_return_val_if_fail(node >= 0 && node < cpu->nnodes, 0);
    const cpu_node *nd = &cpu->nodes[node];
    return nd->work_done + nd->rate * (cpu->now - nd->updated) * nd->runnable;
}
