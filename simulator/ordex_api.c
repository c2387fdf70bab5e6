/*
 * ordex_api.c - the functions of ordex.h that programs call.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "include/ordex.h"
#include "scheduler/sched.h"
#include "simulator/engine.h"
#include "simulator/timed.h"

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
    /* Under predict the seconds join the computation that this call's own
     * entry turns into simulated time. */
    sim_timed_add_work(seconds);
    sim_call_enter("ordex_compute", __builtin_return_address(0), __builtin_frame_address(0));
    if (seconds > 0 && !sim_timed_active())
        sim_proc_of(sim_self())->clock += seconds;
    sim_call_leave();
}

/* ---------------------------------------------------------------------- */
/* ORDEX_SAMPLE                                                            */

/* Per rank, per call site: how many times the body ran and its CPU time. */
typedef struct sample_site {
    long runs;
    double cpu;
} sample_site;

static GHashTable *g_sites; /* "rank:file:line" -> sample_site * */

ordex_sample_state_ ordex_sample_begin_(const char *file, int line, long n) {
    ordex_sample_state_ s = {NULL, 0, 0};
    int self = sched_current();
    if (!sim_timed_active() || self < 0 || n < 0)
        return s; /* run the body, as without ordex */
    sched_enter_sim();
    if (!g_sites)
        g_sites = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    char *key = g_strdup_printf("%d:%s:%d", self, file ? file : "?", line);
    sample_site *site = g_hash_table_lookup(g_sites, key);
    if (!site) {
        site = g_new0(sample_site, 1);
        g_hash_table_insert(g_sites, key, site);
    } else {
        g_free(key);
    }
    sched_leave_sim();
    s.site = site;
    if (site->runs >= n && site->runs > 0) {
        /* Sampled enough: charge the average instead of running the body. */
        ordex_compute(site->cpu / (double)site->runs);
        s.phase = 2;
    } else {
        s.start = sim_timed_clock();
    }
    return s;
}

int ordex_sample_next_(ordex_sample_state_ *s) {
    switch (s->phase) {
    case 0:
        s->phase = 1;
        return 1; /* run the body */
    case 1:
        if (s->site) {
            sample_site *site = s->site;
            site->runs++;
            site->cpu += sim_timed_clock() - s->start;
        }
        return 0;
    default:
        return 0;
    }
}

/* ---------------------------------------------------------------------- */
/* ordex_fake_alloc                                                        */

/* Fake memory: a reserved range whose pages all map one small shared block,
 * so it costs address space but almost no memory.  Its contents are
 * meaningless (every page aliases the same bytes). */
#define FAKE_BLOCK ((size_t)1 << 20)

static int g_fake_fd = -1;
static size_t g_fake_fd_size;
static GHashTable *g_fake; /* address -> size */

/* The shared block, at least `size` bytes long (sparse: only the pages
 * someone touches take memory, once for every alias). */
static bool fake_block(size_t size) {
    if (g_fake_fd < 0)
        g_fake_fd = memfd_create("ordex-fake", MFD_CLOEXEC);
    if (g_fake_fd < 0)
        return false;
    if (g_fake_fd_size < size) {
        if (ftruncate(g_fake_fd, (off_t)size) != 0)
            return false;
        g_fake_fd_size = size;
    }
    return true;
}

void *ordex_fake_alloc(size_t size) {
    sched_enter_sim();
    void *result = NULL;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (size ? size : 1) + page - 1;
    len -= len % page;
    /* Few mappings even for huge sizes (mappings per process are capped):
     * at most about 1024 aliases, each of a block large enough. */
    size_t chunk = FAKE_BLOCK;
    while (len / chunk > 1024)
        chunk *= 2;
    void *base = !fake_block(chunk) ? MAP_FAILED
                                    : mmap(NULL, len, PROT_NONE,
                                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base != MAP_FAILED) {
        bool ok = true;
        for (size_t off = 0; off < len && ok; off += chunk) {
            size_t n = len - off < chunk ? len - off : chunk;
            ok = mmap((char *)base + off, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                      g_fake_fd, 0) != MAP_FAILED;
        }
        if (ok) {
            if (!g_fake)
                g_fake = g_hash_table_new(g_direct_hash, g_direct_equal);
            g_hash_table_insert(g_fake, base, GSIZE_TO_POINTER(len));
            result = base;
        } else {
            munmap(base, len);
        }
    }
    sched_leave_sim();
    return result;
}

void ordex_fake_free(void *ptr) {
    if (!ptr || !g_fake)
        return;
    sched_enter_sim();
    gpointer len = g_hash_table_lookup(g_fake, ptr);
    if (len) {
        munmap(ptr, GPOINTER_TO_SIZE(len));
        g_hash_table_remove(g_fake, ptr);
    }
    sched_leave_sim();
}
