/*
 * outcomes.c - distinct outcomes and the best diverging pair, shared by the
 * exploration processes (see outcomes.h).
 *
 * One MAP_SHARED mapping holds, per pass, a header, an open-addressing set of
 * 128-bit outcome hashes, and three path slots: the last ordering and the
 * two of the best pair.  Slots are addressed by index so that taking the
 * last ordering into the pair is an exchange of indices, not a copy.  The
 * mapping is reserved without backing store; only the slots' pages that long
 * paths reach are ever touched.  A spin lock serialises the processes that
 * run at once with --jobs; alone, it costs one atomic exchange.
 */
#include "stategraph/outcomes.h"

#include "stategraph/hashset.h"

#include <string.h>
#include <sys/mman.h>

enum { SLOTS = 3, SET_SLOTS = 1 << 20 };

typedef struct pass_memory {
    int lock;
    uint64_t distinct;
    bool at_least;
    bool have_last, paired;
    ckpt_hash last_outcome;
    int last, a, b;    /* slot indices */
    size_t len[SLOTS]; /* steps held by each slot */
    size_t prefix;     /* of the pair */
    ckpt_hash set[SET_SLOTS];
} pass_memory;

static unsigned char *g_mem;
static size_t g_bytes;
static int g_passes;

static size_t slot_bytes(void) {
    return SG_OUTCOMES_MAX_STEPS * sizeof(sg_step);
}

static size_t pass_bytes(void) {
    return sizeof(pass_memory) + SLOTS * slot_bytes();
}

static pass_memory *pass_at(int pass) {
    return (pass_memory *)(g_mem + (size_t)pass * pass_bytes());
}

static sg_step *slot(int pass, int index) {
    return (sg_step *)((unsigned char *)pass_at(pass) + sizeof(pass_memory) +
                       (size_t)index * slot_bytes());
}

bool sg_outcomes_create(int passes) {
    g_passes = passes;
    g_bytes = (size_t)passes * pass_bytes();
    void *p = mmap(NULL, g_bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        g_mem = NULL;
        return false;
    }
    g_mem = p;
    for (int i = 0; i < passes; i++) {
        pass_memory *m = pass_at(i);
        m->last = 0;
        m->a = 1;
        m->b = 2;
    }
    return true;
}

void sg_outcomes_destroy(void) {
    if (g_mem)
        munmap(g_mem, g_bytes);
    g_mem = NULL;
}

size_t sg_common_prefix(const sg_step *a, size_t na, const sg_step *b, size_t nb) {
    size_t n = na < nb ? na : nb, i = 0;
    for (; i < n; i++) {
        const sg_step *x = &a[i], *y = &b[i];
        if (x->kind != y->kind || x->dst != y->dst || x->src != y->src || x->tag != y->tag ||
            x->choice != y->choice || x->site_a != y->site_a || x->site_b != y->site_b)
            break;
    }
    return i;
}

/* Adds h to the pass's set of outcomes; a full set (three quarters of its
 * slots) stops counting and says so. */
static void count_outcome(pass_memory *m, ckpt_hash h) {
    h = sg_hashset_key(h);
    size_t i = sg_hashset_probe(m->set, SET_SLOTS - 1, h);
    if (!sg_hashset_empty(m->set[i]))
        return;
    if (m->distinct >= SET_SLOTS / 4 * 3) {
        m->at_least = true;
        return;
    }
    m->set[i] = h;
    m->distinct++;
}

bool sg_outcomes_add(int pass, ckpt_hash outcome, const sg_step *steps, size_t n) {
    if (n > SG_OUTCOMES_MAX_STEPS)
        return false;
    pass_memory *m = pass_at(pass);
    sg_spin_lock(&m->lock);
    count_outcome(m, outcome);
    if (m->have_last && !ckpt_hash_equal(m->last_outcome, outcome)) {
        size_t p = sg_common_prefix(slot(pass, m->last), m->len[m->last], steps, n);
        if (!m->paired || p > m->prefix) {
            int old_a = m->a; /* the last ordering becomes a; its slot is free */
            m->a = m->last;
            m->last = old_a;
            memcpy(slot(pass, m->b), steps, n * sizeof *steps);
            m->len[m->b] = n;
            m->prefix = p;
            m->paired = true;
        }
    }
    memcpy(slot(pass, m->last), steps, n * sizeof *steps);
    m->len[m->last] = n;
    m->last_outcome = outcome;
    m->have_last = true;
    sg_spin_unlock(&m->lock);
    return true;
}

static GArray *copy_slot(int pass, int index) {
    size_t n = pass_at(pass)->len[index];
    GArray *a = g_array_sized_new(FALSE, FALSE, sizeof(sg_step), (guint)n);
    g_array_append_vals(a, slot(pass, index), (guint)n);
    return a;
}

void sg_outcomes_get(int pass, sg_pass_outcomes *out) {
    memset(out, 0, sizeof *out);
    if (!g_mem || pass >= g_passes)
        return;
    const pass_memory *m = pass_at(pass);
    out->distinct = m->distinct;
    out->at_least = m->at_least;
    if (m->paired) {
        out->a = copy_slot(pass, m->a);
        out->b = copy_slot(pass, m->b);
        out->prefix = (guint)m->prefix;
    }
}

/* Export format, every field a multiple of 8 bytes: u64 distinct, u64
 * at_least, the distinct hashes; u64 have_last, the last outcome, u64
 * steps, the steps; u64 paired, u64 prefix, then a and b as u64 steps and
 * the steps. */
static void put(GByteArray *b, const void *p, size_t n) {
    g_byte_array_append(b, p, (guint)n);
}

static void put_u64(GByteArray *b, uint64_t v) {
    put(b, &v, 8);
}

static void put_slot(GByteArray *b, int pass, int index) {
    size_t n = pass_at(pass)->len[index];
    put_u64(b, n);
    put(b, slot(pass, index), n * sizeof(sg_step));
}

GByteArray *sg_outcomes_export(int pass) {
    GByteArray *b = g_byte_array_new();
    if (!g_mem || pass >= g_passes)
        return b;
    const pass_memory *m = pass_at(pass);
    put_u64(b, m->distinct);
    put_u64(b, m->at_least);
    for (size_t i = 0; i < SET_SLOTS; i++)
        if (!sg_hashset_empty(m->set[i]))
            put(b, &m->set[i], sizeof(ckpt_hash));
    put_u64(b, m->have_last);
    put(b, &m->last_outcome, sizeof(ckpt_hash));
    put_slot(b, pass, m->last);
    put_u64(b, m->paired);
    put_u64(b, m->prefix);
    put_slot(b, pass, m->a);
    put_slot(b, pass, m->b);
    return b;
}

typedef struct cursor {
    const unsigned char *p, *end;
    bool bad;
} cursor;

static const void *take(cursor *c, size_t n) {
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = true;
        return NULL;
    }
    const void *at = c->p;
    c->p += n;
    return at;
}

static uint64_t take_u64(cursor *c) {
    const void *p = take(c, 8);
    uint64_t v = 0;
    if (p)
        memcpy(&v, p, 8);
    return v;
}

/* Steps as they were exported: a count, then the steps. */
static const sg_step *take_steps(cursor *c, size_t *n) {
    *n = (size_t)take_u64(c);
    if (*n > SG_OUTCOMES_MAX_STEPS) {
        c->bad = true;
        return NULL;
    }
    return take(c, *n * sizeof(sg_step));
}

void sg_outcomes_import(int pass, const void *bytes, size_t len) {
    if (!g_mem || pass >= g_passes)
        return;
    /* Aligned for the hashes and steps read in place (the bytes may sit
     * anywhere in a message). */
    void *data = g_memdup2(bytes, len);
    cursor c = {data, (const unsigned char *)data + len, false};
    pass_memory *m = pass_at(pass);
    uint64_t distinct = take_u64(&c);
    bool at_least = take_u64(&c) != 0;
    if (distinct > SET_SLOTS)
        c.bad = true;
    const ckpt_hash *set = take(&c, distinct * sizeof(ckpt_hash));
    bool have_last = take_u64(&c) != 0;
    const ckpt_hash *last = take(&c, sizeof(ckpt_hash));
    size_t nlast = 0, na = 0, nb = 0;
    const sg_step *last_steps = take_steps(&c, &nlast);
    bool paired = take_u64(&c) != 0;
    uint64_t prefix = take_u64(&c);
    const sg_step *a = take_steps(&c, &na);
    const sg_step *b = take_steps(&c, &nb);
    if (c.bad) {
        g_free(data);
        return;
    }
    sg_spin_lock(&m->lock);
    for (uint64_t i = 0; i < distinct; i++)
        count_outcome(m, set[i]);
    m->at_least = m->at_least || at_least;
    /* The other rank's best pair, where it shares more than this one's. */
    if (paired && (!m->paired || prefix > m->prefix)) {
        memcpy(slot(pass, m->a), a, na * sizeof(sg_step));
        m->len[m->a] = na;
        memcpy(slot(pass, m->b), b, nb * sizeof(sg_step));
        m->len[m->b] = nb;
        m->prefix = (size_t)prefix;
        m->paired = true;
    }
    sg_spin_unlock(&m->lock);
    /* Its last ordering pairs with this rank's last when their outcomes
     * differ: two ranks that each saw one outcome still give a pair. */
    if (have_last)
        sg_outcomes_add(pass, *last, last_steps, nlast);
    g_free(data);
}

void sg_pass_outcomes_clear(sg_pass_outcomes *o) {
    if (o->a)
        g_array_free(o->a, TRUE);
    if (o->b)
        g_array_free(o->b, TRUE);
    memset(o, 0, sizeof *o);
}
