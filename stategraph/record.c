/*
 * record.c - the record of an exploration, in memory shared by all its
 * processes: findings with their orderings and the state graph's edges,
 * appended as paths end and read back at the end (see explore_internal.h).
 */
#include "stategraph/explore_internal.h"

#include <stdio.h>
#include <string.h>

#include "checkpoint/hash.h"
#include "stategraph/hashset.h"
#include "stategraph/outcomes.h"
#include "stategraph/state.h"

/* Appends one whole record: its place is reserved before it is written. */
void sgx_log_append(const void *data, size_t len) {
    size_t at = __atomic_load_n(&sgx_sh->log_len, __ATOMIC_RELAXED);
    do {
        if (at + len > sgx_sh->log_cap) {
            sgx_stop_all("the record of explored paths is full");
            return;
        }
    } while (!__atomic_compare_exchange_n(&sgx_sh->log_len, &at, at + len, true, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
    memcpy(sgx_sh->log + at, data, len);
}

static void put_u32(GByteArray *b, uint32_t v) {
    g_byte_array_append(b, (guint8 *)&v, 4);
}

static void put_str(GByteArray *b, const char *s) {
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    put_u32(b, n);
    if (n)
        g_byte_array_append(b, (const guint8 *)s, n);
}

static void put_path(GByteArray *b) {
    put_u32(b, sgx_x.path->len);
    g_byte_array_append(b, (guint8 *)sgx_x.path->data, (guint)(sgx_x.path->len * sizeof(sg_step)));
}

/* Whether a finding with this key and a path of `steps` steps should be
 * logged: the first of its key, or shorter than the one logged before.  A
 * table three quarters full logs every new key (the reader keeps the
 * shortest anyway). */
static bool finding_news(ckpt_hash key, uint32_t steps) {
    key = sg_hashset_key(key);
    sg_spin_lock(&sgx_sh->logged_lock);
    size_t i = sg_hashset_probe(sgx_sh->logged_key, LOGGED_SLOTS - 1, key);
    bool known = !sg_hashset_empty(sgx_sh->logged_key[i]);
    bool news = !known || steps < sgx_sh->logged_steps[i];
    if (known ? news : sgx_sh->logged < LOGGED_SLOTS / 4 * 3) {
        sgx_sh->logged += !known;
        sgx_sh->logged_key[i] = key;
        sgx_sh->logged_steps[i] = steps;
    }
    sg_spin_unlock(&sgx_sh->logged_lock);
    return news;
}

static ckpt_hash finding_key(const sim_finding *f) {
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    ckpt_hash_u64(&h, (uint64_t)f->kind);
    const char *parts[2] = {f->location, f->message};
    for (int i = 0; i < 2; i++) {
        size_t n = parts[i] ? strlen(parts[i]) : 0;
        ckpt_hash_u64(&h, n);
        ckpt_hash_bytes(&h, parts[i] ? parts[i] : "", n);
    }
    return ckpt_hasher_final(&h);
}

void sgx_record_path(void) {
    GPtrArray *fs = sim_findings();
    for (guint i = 0; i < fs->len; i++) {
        const sim_finding *f = g_ptr_array_index(fs, i);
        if (!finding_news(finding_key(f), sgx_x.path->len))
            continue;
        GByteArray *b = g_byte_array_new();
        put_u32(b, REC_FINDING);
        put_u32(b, 0); /* length, patched below */
        put_u32(b, (uint32_t)sgx_x.pass);
        put_u32(b, (uint32_t)f->kind);
        put_u32(b, (uint32_t)f->nranks);
        g_byte_array_append(b, (guint8 *)f->ranks, (guint)(sizeof(int) * (size_t)f->nranks));
        put_str(b, f->message);
        put_str(b, f->details);
        put_str(b, f->location);
        put_path(b);
        uint32_t len = b->len;
        memcpy(b->data + 4, &len, 4);
        sgx_log_append(b->data, b->len);
        g_byte_array_free(b, TRUE);
    }
    /* Advisory findings (a leak) leave the ordering's outcome comparable. */
    if (!sim_findings_have_error(fs) &&
        !sg_outcomes_add(sgx_x.pass, sg_outcome_hash(), (const sg_step *)sgx_x.path->data,
                         sgx_x.path->len)) {
        char why[128];
        snprintf(why, sizeof why, "an ordering has more steps than ordex keeps (%zu)",
                 (size_t)SG_OUTCOMES_MAX_STEPS);
        sgx_stop_all(why);
    }
}

typedef struct reader {
    const unsigned char *p, *end;
} reader;

static uint32_t get_u32(reader *r) {
    uint32_t v;
    memcpy(&v, r->p, 4);
    r->p += 4;
    return v;
}

static char *get_str(reader *r) {
    uint32_t n = get_u32(r);
    if (!n)
        return NULL;
    char *s = g_strndup((const char *)r->p, n);
    r->p += n;
    return s;
}

static GArray *get_path(reader *r) {
    uint32_t n = get_u32(r);
    GArray *a = g_array_sized_new(FALSE, FALSE, sizeof(sg_step), n);
    g_array_append_vals(a, r->p, n);
    r->p += n * sizeof(sg_step);
    return a;
}

void sgx_finding_free(gpointer p) {
    sg_finding *f = p;
    g_free(f->message);
    g_free(f->details);
    g_free(f->location);
    g_free(f->ranks);
    g_array_free(f->path, TRUE);
    g_free(f);
}

/* Keeps one finding per (kind, location, message): the one with the
 * shortest path, which is the easiest to read. */
static void add_finding(sg_explore_result *res, GHashTable *seen, sg_finding *f) {
    char *key = g_strdup_printf("%d|%s|%s", f->kind, f->location ? f->location : "",
                                f->message ? f->message : "");
    sg_finding *old = g_hash_table_lookup(seen, key);
    if (!old) {
        g_hash_table_insert(seen, key, f);
        g_ptr_array_add(res->findings, f);
        return;
    }
    g_free(key);
    if (f->path->len < old->path->len) {
        guint idx;
        g_ptr_array_find(res->findings, old, &idx);
        g_ptr_array_index(res->findings, idx) = f;
        char *k2 = g_strdup_printf("%d|%s|%s", f->kind, f->location ? f->location : "",
                                   f->message ? f->message : "");
        g_hash_table_replace(seen, k2, f);
        sgx_finding_free(old);
    } else {
        sgx_finding_free(f);
    }
}

void sgx_read_log(sg_explore_result *res, GHashTable *seen) {
    reader r = {sgx_sh->log, sgx_sh->log + sgx_sh->log_len};
    while (r.p < r.end) {
        const unsigned char *start = r.p;
        uint32_t type = get_u32(&r);
        uint32_t len = get_u32(&r);
        if (len < 8 || len > (size_t)(r.end - start))
            break; /* reserved by a process killed before it wrote the record */
        if (type == REC_FINDING) {
            sg_finding *f = g_new0(sg_finding, 1);
            f->pass = (int)get_u32(&r);
            f->kind = (sim_finding_kind)get_u32(&r);
            f->nranks = (int)get_u32(&r);
            f->ranks = g_memdup2(r.p, sizeof(int) * (size_t)f->nranks);
            r.p += sizeof(int) * (size_t)f->nranks;
            f->message = get_str(&r);
            f->details = get_str(&r);
            f->location = get_str(&r);
            f->path = get_path(&r);
            add_finding(res, seen, f);
        } else if (type == REC_EDGE) {
            sg_edge e;
            memcpy(&e, r.p, sizeof e);
            if (res->edges)
                g_array_append_val(res->edges, e);
        }
        r.p = start + len;
    }
}
