/*
 * test_models_random.c - randomized cross-checks of the time models against
 * naive reference implementations written here from the definitions:
 *
 *   network (simulator/netmodel.c): every event re-rates all streaming
 *     transfers by plain progressive filling over all links and advances
 *     every transfer; 200 transfers on random paths over a few links, with
 *     random starts, latencies, sizes and caps;
 *   CPU (simulator/cpumodel.c): every event recomputes every node's rate
 *     and advances every job; 200 jobs on a few nodes.
 *
 * Finish times must agree within 1e-9 relative.  The model is also driven
 * in two ways (advance to every start, then step by pm_net_next_event or
 * pm_cpu_next; or start everything, then drain by pm_net_next), which
 * must give identical times: how the caller steps must not change the
 * arithmetic.  Half of the seeds round sizes and times to coarse values so
 * that ties (equal shares, simultaneous events) are common.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfmodel/cpumodel.h"
#include "perfmodel/netmodel.h"

#define N 200
#define SEEDS 24
#define NLINKS 6
#define MAXP 4
#define NNODES 4

/* Within 1e-9 relative: the models are exact, the references round
 * differently. */
#define AGREE(actual, expected)                                                                    \
    CU_ASSERT_DOUBLE_EQUAL((actual), (expected), 1e-9 * fabs(expected) + 1e-15)

/* ---------------------------------------------------------------------- */
/* Network                                                                 */

typedef struct xfer {
    double start, latency, cap, bytes;
    int path[MAXP];
    int npath;
    /* reference state */
    int phase; /* 0 waiting its latency (or not started), 1 streaming, 2 done */
    double remaining, rate, finish;
} xfer;

/* Random transfers in start order.  Coarse: sizes in whole MB and times in
 * whole ms, so that shares and events tie. */
static void make_xfers(GRand *r, bool coarse, xfer *x, double *capacity) {
    for (int l = 0; l < NLINKS; l++)
        capacity[l] = coarse ? 1e9 * g_rand_int_range(r, 1, 4) : g_rand_double_range(r, 1e9, 1e10);
    double t = 0;
    for (int i = 0; i < N; i++) {
        xfer *f = &x[i];
        *f = (xfer){0};
        t += coarse ? 1e-3 * g_rand_int_range(r, 0, 3) : g_rand_double_range(r, 0, 2e-3);
        f->start = t;
        f->latency = coarse ? 1e-3 * g_rand_int_range(r, 0, 3) : g_rand_double_range(r, 0, 1e-3);
        int kind = g_rand_int_range(r, 0, 20);
        f->bytes = kind == 0 ? 0
                   : coarse  ? 1e6 * g_rand_int_range(r, 1, 20)
                             : floor(g_rand_double_range(r, 1, 2e7));
        f->cap = INFINITY;
        if (kind >= 14)
            f->cap = coarse ? 1e9 * g_rand_int_range(r, 1, 3) : g_rand_double_range(r, 2e8, 4e9);
        if (kind == 1) {
            f->npath = 0; /* no link: needs a cap */
            f->cap = coarse ? 1e9 : g_rand_double_range(r, 2e8, 4e9);
            continue;
        }
        f->npath = g_rand_int_range(r, 1, MAXP + 1);
        for (int k = 0; k < f->npath; k++) {
            bool fresh;
            do {
                f->path[k] = g_rand_int_range(r, 0, NLINKS);
                fresh = true;
                for (int j = 0; j < k; j++)
                    fresh &= f->path[j] != f->path[k];
            } while (!fresh);
        }
    }
}

/* Max-min fair rates of the streaming transfers by the definition: raise
 * every unfrozen rate together; when a link is full or a transfer reaches
 * its cap, freeze the transfers held by it at that level. */
static void ref_rates(xfer *x, const double *capacity) {
    double left[NLINKS];
    int count[NLINKS] = {0};
    bool frozen[N], hold[N];
    int unfrozen = 0;
    for (int l = 0; l < NLINKS; l++)
        left[l] = capacity[l];
    for (int i = 0; i < N; i++) {
        frozen[i] = x[i].phase != 1;
        if (frozen[i])
            continue;
        unfrozen++;
        for (int k = 0; k < x[i].npath; k++)
            count[x[i].path[k]]++;
    }
    while (unfrozen > 0) {
        double level = INFINITY;
        for (int l = 0; l < NLINKS; l++)
            if (count[l] > 0)
                level = fmin(level, left[l] / count[l]);
        for (int i = 0; i < N; i++)
            if (!frozen[i])
                level = fmin(level, x[i].cap);
        for (int i = 0; i < N; i++) {
            hold[i] = !frozen[i] && x[i].cap <= level;
            for (int k = 0; k < x[i].npath && !frozen[i]; k++) {
                int l = x[i].path[k];
                hold[i] |= left[l] / count[l] <= level;
            }
        }
        for (int i = 0; i < N; i++) {
            if (!hold[i])
                continue;
            frozen[i] = true;
            unfrozen--;
            x[i].rate = level;
            for (int k = 0; k < x[i].npath; k++) {
                left[x[i].path[k]] -= level;
                count[x[i].path[k]]--;
            }
        }
    }
}

/* The reference run: finish[i] for each transfer. */
static void ref_net(xfer *x, const double *capacity) {
    double t = 0;
    for (;;) {
        ref_rates(x, capacity);
        double next = INFINITY;
        for (int i = 0; i < N; i++) {
            if (x[i].phase == 0)
                next = fmin(next, x[i].start + x[i].latency);
            else if (x[i].phase == 1)
                next = fmin(next, t + x[i].remaining / x[i].rate);
        }
        if (isinf(next))
            break;
        for (int i = 0; i < N; i++) {
            if (x[i].phase != 1)
                continue;
            bool due = t + x[i].remaining / x[i].rate <= next;
            x[i].remaining -= x[i].rate * (next - t);
            if (due || x[i].remaining <= x[i].bytes * 1e-12 + 1e-9) {
                x[i].phase = 2;
                x[i].finish = next;
            }
        }
        t = next;
        for (int i = 0; i < N; i++) {
            if (x[i].phase != 0 || x[i].start + x[i].latency > t)
                continue;
            x[i].phase = x[i].bytes > 0 ? 1 : 2;
            x[i].remaining = x[i].bytes;
            x[i].finish = t;
        }
    }
}

static void record_net(const GArray *done, double *finish) {
    for (guint i = 0; i < done->len; i++) {
        const pm_net_completion *c = &g_array_index(done, pm_net_completion, i);
        CU_ASSERT_FATAL(c->id >= 1 && c->id <= N);
        CU_ASSERT(finish[c->id - 1] < 0); /* once */
        finish[c->id - 1] = c->time;
    }
}

static uint64_t start_xfer(pm_net *net, const xfer *f) {
    return pm_net_start_path(net, f->start, f->path, f->npath, f->latency, f->cap,
                              (uint64_t)f->bytes);
}

/* Advances to every start, then steps by pm_net_next_event. */
static pm_net *drive_by_events(const xfer *x, const double *capacity, double *finish) {
    pm_net *net = pm_net_new_links(NLINKS, capacity);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    for (int i = 0; i < N; i++) {
        g_array_set_size(done, 0);
        pm_net_advance(net, x[i].start, done);
        record_net(done, finish);
        CU_ASSERT_EQUAL(start_xfer(net, &x[i]), (uint64_t)i + 1);
    }
    double t;
    int guard = 0;
    while (pm_net_next_event(net, &t) && guard++ < 10 * N) {
        CU_ASSERT(t >= pm_net_now(net));
        g_array_set_size(done, 0);
        pm_net_advance(net, t, done);
        record_net(done, finish);
        for (guint i = 0; i < done->len; i++)
            CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, i).time, t);
    }
    CU_ASSERT_EQUAL(pm_net_pending(net), 0);
    g_array_free(done, TRUE);
    return net;
}

/* Starts everything (earlier completions wait), then drains by
 * pm_net_next, checking its promise at every step. */
static void drive_by_next(const xfer *x, const double *capacity, double *finish) {
    pm_net *net = pm_net_new_links(NLINKS, capacity);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_net_completion));
    for (int i = 0; i < N; i++)
        CU_ASSERT_EQUAL(start_xfer(net, &x[i]), (uint64_t)i + 1);
    uint64_t id;
    double t;
    int guard = 0;
    while (pm_net_next(net, &id, &t) && guard++ < 10 * N) {
        g_array_set_size(done, 0);
        pm_net_advance(net, fmax(t, pm_net_now(net)), done);
        CU_ASSERT_TRUE(done->len >= 1);
        CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).id, id);
        CU_ASSERT_EQUAL(g_array_index(done, pm_net_completion, 0).time, t);
        record_net(done, finish);
    }
    CU_ASSERT_EQUAL(pm_net_pending(net), 0);
    g_array_free(done, TRUE);
    pm_net_free(net);
}

static void test_net_random(void) {
    static xfer x[N];
    double capacity[NLINKS], by_events[N], by_next[N];
    for (int seed = 1; seed <= SEEDS; seed++) {
        GRand *r = g_rand_new_with_seed((guint32)seed);
        make_xfers(r, seed % 2 == 0, x, capacity);
        g_rand_free(r);
        for (int i = 0; i < N; i++)
            by_events[i] = by_next[i] = -1;
        pm_net *net = drive_by_events(x, capacity, by_events);
        drive_by_next(x, capacity, by_next);
        ref_net(x, capacity);
        double carried[NLINKS] = {0};
        for (int i = 0; i < N; i++) {
            AGREE(by_events[i], x[i].finish);
            CU_ASSERT_EQUAL(by_next[i], by_events[i]);
            CU_ASSERT(by_events[i] >= x[i].start + x[i].latency);
            for (int k = 0; k < x[i].npath; k++)
                carried[x[i].path[k]] += x[i].bytes;
        }
        /* Every byte crossed each link of its path once. */
        for (int l = 0; l < NLINKS; l++) {
            pm_net_link_stats st;
            pm_net_link_stats_get(net, l, &st);
            CU_ASSERT_DOUBLE_EQUAL(st.bytes, carried[l], carried[l] * 1e-9 + 1e-3);
            CU_ASSERT(st.busy <= pm_net_now(net));
            CU_ASSERT(st.busy >= carried[l] / capacity[l] * (1 - 1e-9));
        }
        pm_net_free(net);
    }
}

/* ---------------------------------------------------------------------- */
/* CPU                                                                     */

typedef struct job {
    double start, work;
    int node;
    int phase; /* 0 not started, 1 running, 2 done */
    double remaining, finish;
} job;

static void make_jobs(GRand *r, bool coarse, job *j) {
    double t = 0;
    for (int i = 0; i < N; i++) {
        t += coarse ? 0.125 * g_rand_int_range(r, 0, 3) : g_rand_double_range(r, 0, 0.05);
        j[i] = (job){.start = t, .node = g_rand_int_range(r, 0, NNODES)};
        int kind = g_rand_int_range(r, 0, 20);
        j[i].work = kind == 0 ? 0
                    : coarse  ? 0.25 * g_rand_int_range(r, 1, 8)
                              : g_rand_double_range(r, 1e-3, 1.0);
    }
}

/* The reference run; busy and work per node. */
static void ref_cpu(job *j, int cores, double speed, double *busy, double *work) {
    double t = 0;
    for (;;) {
        int n[NNODES] = {0};
        double rate[NNODES];
        for (int i = 0; i < N; i++)
            n[j[i].node] += j[i].phase == 1;
        for (int k = 0; k < NNODES; k++)
            rate[k] = n[k] <= cores ? speed : speed * cores / n[k];
        double next = INFINITY;
        for (int i = 0; i < N; i++) {
            if (j[i].phase == 0)
                next = fmin(next, j[i].start);
            else if (j[i].phase == 1)
                next = fmin(next, t + j[i].remaining / rate[j[i].node]);
        }
        if (isinf(next))
            break;
        for (int k = 0; k < NNODES; k++)
            if (n[k] > 0) {
                busy[k] += next - t;
                work[k] += rate[k] * (next - t) * n[k];
            }
        for (int i = 0; i < N; i++) {
            if (j[i].phase != 1)
                continue;
            double r = rate[j[i].node];
            bool due = t + j[i].remaining / r <= next;
            j[i].remaining -= r * (next - t);
            if (due || j[i].remaining <= j[i].work * 1e-12 + 1e-15) {
                j[i].phase = 2;
                j[i].finish = next;
            }
        }
        t = next;
        for (int i = 0; i < N; i++) {
            if (j[i].phase != 0 || j[i].start > t)
                continue;
            j[i].phase = j[i].work > 0 ? 1 : 2;
            j[i].remaining = j[i].work;
            j[i].finish = t;
        }
    }
}

static void record_cpu(const GArray *done, double *finish) {
    for (guint i = 0; i < done->len; i++) {
        const pm_cpu_completion *c = &g_array_index(done, pm_cpu_completion, i);
        CU_ASSERT_FATAL(c->id >= 1 && c->id <= N);
        CU_ASSERT(finish[c->id - 1] < 0);
        finish[c->id - 1] = c->time;
    }
}

/* Advances to every start (or not), then drains by pm_cpu_next. */
static pm_cpu *drive_cpu(const job *j, int cores, double speed, bool advance, double *finish) {
    pm_cpu *cpu = pm_cpu_new(NNODES, cores, speed);
    GArray *done = g_array_new(FALSE, FALSE, sizeof(pm_cpu_completion));
    for (int i = 0; i < N; i++) {
        if (advance) {
            g_array_set_size(done, 0);
            pm_cpu_advance(cpu, j[i].start, done);
            record_cpu(done, finish);
        }
        CU_ASSERT_EQUAL(pm_cpu_start(cpu, j[i].start, j[i].node, j[i].work), (uint64_t)i + 1);
    }
    uint64_t id;
    double t;
    int guard = 0;
    while (pm_cpu_next(cpu, &id, &t) && guard++ < 10 * N) {
        g_array_set_size(done, 0);
        pm_cpu_advance(cpu, fmax(t, pm_cpu_now(cpu)), done);
        CU_ASSERT_TRUE(done->len >= 1);
        CU_ASSERT_EQUAL(g_array_index(done, pm_cpu_completion, 0).id, id);
        CU_ASSERT_EQUAL(g_array_index(done, pm_cpu_completion, 0).time, t);
        record_cpu(done, finish);
    }
    g_array_free(done, TRUE);
    return cpu;
}

static void test_cpu_random(void) {
    static job j[N];
    double stepped[N], started[N];
    for (int seed = 1; seed <= SEEDS; seed++) {
        GRand *r = g_rand_new_with_seed((guint32)(1000 + seed));
        int cores = g_rand_int_range(r, 1, 4);
        double speed = seed % 3 == 0 ? 1.5 : 1.0;
        make_jobs(r, seed % 2 == 0, j);
        g_rand_free(r);
        for (int i = 0; i < N; i++)
            stepped[i] = started[i] = -1;
        pm_cpu *cpu = drive_cpu(j, cores, speed, true, stepped);
        pm_cpu_free(drive_cpu(j, cores, speed, false, started));
        double busy[NNODES] = {0}, work[NNODES] = {0}, total[NNODES] = {0};
        ref_cpu(j, cores, speed, busy, work);
        for (int i = 0; i < N; i++) {
            AGREE(stepped[i], j[i].finish);
            CU_ASSERT_EQUAL(started[i], stepped[i]);
            total[j[i].node] += j[i].work;
        }
        for (int k = 0; k < NNODES; k++) {
            CU_ASSERT_EQUAL(pm_cpu_runnable(cpu, k), 0);
            AGREE(pm_cpu_work_done(cpu, k), total[k]);
            AGREE(pm_cpu_work_done(cpu, k), work[k]);
            AGREE(pm_cpu_busy(cpu, k), busy[k]);
        }
        pm_cpu_free(cpu);
    }
}

/* ---------------------------------------------------------------------- */

int main(void) {
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite = CU_add_suite("models against references", NULL, NULL);
    if (!suite ||
        !CU_add_test(suite, "network: max-min fair finish times of random transfers",
                     test_net_random) ||
        !CU_add_test(suite, "cpu: processor-sharing finish times of random jobs",
                     test_cpu_random)) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed == 0 ? 0 : 1;
}
