/*
 * typesig.c - type signatures: their interned representation and how
 * constructors build them, walking and comparing them (MPI 3.1 section
 * 3.3.1 matching), and counting the basic elements in a number of bytes.
 * The form of a signature is in datatype_internal.h.
 */
#include <glib.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "simulator/datatype.h"
#include "simulator/datatype_internal.h"

/* ---------------------------------------------------------------------- */
/* Signatures: representation                                              */
/*
 * A type's signature is built once, with the type, and shared: messages
 * and collectives hold a reference and a count, never a copy spelled out
 * per element.  It is a list of items, each a run of one basic type or a
 * repeat (`count` passes over another signature), so that count copies of
 * a struct cost one item however large count is.
 *
 * Signatures are interned: building one equal to a live one (same items,
 * repeats compared by the identity of their bodies) gives the live one.
 * The builder also brings equivalent constructions to the same items where
 * it can (runs merge; k copies of a signature become one repeat however
 * they were written; a list that is one part several times becomes a
 * repeat of that part), so that contiguous(2, S), a struct of S and S and a
 * struct of S's basic types twice over are one object, and matching the
 * same structure on both sides is a pointer comparison.  Equal streams
 * built in ways the builder does not bring together stay distinct objects:
 * that costs a walk when matching, never a wrong answer.
 */

static GHashTable *sig_table; /* the interned signatures, as a set */

/* A signature of up to this many items is copied into one that contains it
 * once; a larger one becomes a repeat of one pass, which costs one item. */
#define SIG_INLINE_MAX 8

static size_t item_bytes(const sig_item *it) {
    return it->count * (it->body ? it->body->bytes : sim_dt_basic_size(it->basic));
}

static size_t item_elems(const sig_item *it) {
    return it->body ? it->count * it->body->elems : it->count;
}

static bool item_eq(const sig_item *a, const sig_item *b) {
    return a->basic == b->basic && a->body == b->body && a->count == b->count;
}

static guint sig_hash(gconstpointer p) {
    return ((const sim_typesig *)p)->hash;
}

static gboolean sig_eq(gconstpointer pa, gconstpointer pb) {
    const sim_typesig *a = pa, *b = pb;
    if (a->n != b->n || a->hash != b->hash)
        return FALSE;
    for (guint i = 0; i < a->n; i++)
        if (!item_eq(&a->items[i], &b->items[i]))
            return FALSE;
    return TRUE;
}

void sim_typesig_table_init(void) {
    sig_table = g_hash_table_new(sig_hash, sig_eq);
}

void sim_typesig_table_fini(void) {
    g_hash_table_destroy(sig_table);
    sig_table = NULL;
}

const sim_typesig *sim_typesig_ref(const sim_typesig *sig) {
    ((sim_typesig *)sig)->refs++;
    return sig;
}

void sim_typesig_unref(const sim_typesig *csig) {
    sim_typesig *sig = (sim_typesig *)csig;
    if (!sig || --sig->refs > 0)
        return;
    /* Only this very object leaves the set: after sim_dt_fini and a new
     * sim_dt_init an equal one may be interned while this one was held. */
    if (sig_table && g_hash_table_lookup(sig_table, sig) == sig)
        g_hash_table_remove(sig_table, sig);
    for (guint i = 0; i < sig->n; i++)
        sim_typesig_unref(sig->items[i].body);
    g_free(sig);
}

size_t sim_typesig_bytes(const sim_typesig *sig) {
    return sig->bytes;
}

/* The signature of the n items (whose body references it takes over): the
 * interned one equal to them, or a new one. */
static const sim_typesig *sig_intern(const sig_item *items, guint n) {
    sim_typesig *sig = g_malloc(sizeof *sig + (size_t)n * sizeof(sig_item));
    guint64 h = 14695981039346656037u;
    sig->refs = 1;
    sig->n = n;
    sig->depth = 0;
    sig->bytes = sig->elems = 0;
    for (guint i = 0; i < n; i++) {
        const sig_item *it = &items[i];
        sig->items[i] = *it;
        sig->bytes += item_bytes(it);
        sig->elems += item_elems(it);
        if (it->body)
            sig->depth = MAX(sig->depth, it->body->depth + 1);
        guint64 parts[3] = {(guint64)(unsigned)it->basic, (guint64)(uintptr_t)it->body,
                            (guint64)it->count};
        for (int k = 0; k < 3; k++)
            h = (h ^ parts[k]) * 1099511628211u;
    }
    sig->hash = (guint)(h ^ (h >> 32));
    sim_typesig *old = g_hash_table_lookup(sig_table, sig);
    if (old) {
        sim_typesig_unref(sig);
        return sim_typesig_ref(old);
    }
    g_hash_table_add(sig_table, sig);
    return sig;
}

void sim_sb_init(sim_sig_builder *b) {
    b->items = g_array_new(FALSE, FALSE, sizeof(sig_item));
    b->too_big = false;
}

static sig_item *sb_last(sim_sig_builder *b) {
    return b->items->len ? &g_array_index(b->items, sig_item, b->items->len - 1) : NULL;
}

static void sb_push(sim_sig_builder *b, sig_item it) {
    if (b->items->len >= DT_MAX_PIECES) {
        b->too_big = true;
        sim_typesig_unref(it.body);
        return;
    }
    g_array_append_val(b->items, it);
}

void sim_sb_run(sim_sig_builder *b, MPI_Datatype basic, size_t count) {
    sig_item *last = sb_last(b);
    if (count == 0)
        return;
    if (last && !last->body && last->basic == basic)
        last->count += count;
    else
        sb_push(b, (sig_item){basic, NULL, count});
}

/* True when the builder ends with exactly s's items (one pass over s). */
static bool sb_ends_with(sim_sig_builder *b, const sim_typesig *s) {
    guint len = b->items->len;
    if (len < s->n)
        return false;
    const sig_item *tail = &g_array_index(b->items, sig_item, len - s->n);
    for (guint i = 0; i < s->n; i++)
        if (!item_eq(&tail[i], &s->items[i]))
            return false;
    return true;
}

/* Appends k passes over s as a repeat, joining the pass or repeat of s that
 * the builder may end with. */
static void sb_repeat(sim_sig_builder *b, const sim_typesig *s, size_t k) {
    sig_item *last = sb_last(b);
    if (last && last->body == s) {
        last->count += k;
        return;
    }
    if (sb_ends_with(b, s)) {
        guint keep = b->items->len - s->n;
        for (guint i = keep; i < b->items->len; i++)
            sim_typesig_unref(g_array_index(b->items, sig_item, i).body);
        g_array_set_size(b->items, keep);
        sb_repeat(b, s, k + 1);
        return;
    }
    sb_push(b, (sig_item){MPI_DATATYPE_NULL, sim_typesig_ref(s), k});
}

void sim_sb_sig(sim_sig_builder *b, const sim_typesig *s, size_t k) {
    if (k == 0 || s->bytes == 0)
        return;
    if (s->n == 1) {
        const sig_item *it = &s->items[0];
        if (it->body)
            sim_sb_sig(b, it->body, it->count * k);
        else
            sim_sb_run(b, it->basic, it->count * k);
        return;
    }
    sig_item *last = sb_last(b);
    if (k == 1 && s->n <= SIG_INLINE_MAX && !(last && last->body == s) && !sb_ends_with(b, s)) {
        for (guint i = 0; i < s->n; i++) {
            const sig_item *it = &s->items[i];
            if (it->body)
                sb_repeat(b, it->body, it->count);
            else
                sim_sb_run(b, it->basic, it->count);
        }
        return;
    }
    sb_repeat(b, s, k);
}

/* The shortest p such that the n items are items[0..p) n/p times (n when
 * there is none), by the prefix function of the item sequence. */
static guint sb_period(const sig_item *items, guint n) {
    if (n < 2)
        return n;
    guint *pf = g_new(guint, n);
    pf[0] = 0;
    for (guint i = 1; i < n; i++) {
        guint k = pf[i - 1];
        while (k > 0 && !item_eq(&items[i], &items[k]))
            k = pf[k - 1];
        pf[i] = item_eq(&items[i], &items[k]) ? k + 1 : k;
    }
    guint p = n - pf[n - 1];
    g_free(pf);
    return n % p == 0 ? p : n;
}

const sim_typesig *sim_sb_finish(sim_sig_builder *b) {
    guint n = b->items->len;
    sig_item *items = (sig_item *)(void *)b->items->data;
    const sim_typesig *sig = NULL;
    if (b->too_big) {
        for (guint i = 0; i < n; i++)
            sim_typesig_unref(items[i].body);
    } else if (n == 1 && items[0].body && items[0].count == 1) {
        sig = items[0].body; /* one pass over a signature is that signature */
    } else {
        guint p = sb_period(items, n);
        if (p >= 2 && p < n) {
            /* Runs merge and repeats of one body join, so a period is at
             * least two items long. */
            for (guint i = p; i < n; i++)
                sim_typesig_unref(items[i].body);
            sig_item rep = {MPI_DATATYPE_NULL, sig_intern(items, p), n / p};
            sig = sig_intern(&rep, 1);
        } else {
            sig = sig_intern(items, n);
        }
    }
    g_array_free(b->items, TRUE);
    return sig;
}

/* ---------------------------------------------------------------------- */
/* Signatures: walking and matching                                        */

/* A position in `count` passes over a signature: a stack of frames, one per
 * repeat entered, the top one at a run. */
typedef struct sig_frame {
    const sim_typesig *sig;
    guint i;     /* the current item */
    size_t left; /* passes over sig still to make, the current one included */
} sig_frame;

typedef struct sig_cursor {
    sig_frame *fr; /* fr[0] is the outermost; sig->depth + 1 frames */
    guint depth;   /* frames in use; 0 once everything is consumed */
    size_t off;    /* bytes consumed of the current item (always a run) */
    size_t elems;  /* basic elements before the current item */
    sig_frame local[8];
} sig_cursor;

static void cur_init(sig_cursor *c, const sim_typesig *sig, size_t count) {
    guint need = sig->depth + 1;
    c->fr = need <= G_N_ELEMENTS(c->local) ? c->local : g_new(sig_frame, need);
    c->fr[0] = (sig_frame){sig, 0, count};
    c->depth = count > 0 && sig->n > 0 ? 1 : 0;
    c->off = 0;
    c->elems = 0;
}

static void cur_fini(sig_cursor *c) {
    if (c->fr != c->local)
        g_free(c->fr);
}

/* Steps past the top frame's current item, leaving finished passes and
 * repeats. */
static void cur_next(sig_cursor *c) {
    c->off = 0;
    c->fr[c->depth - 1].i++;
    while (c->depth > 0) {
        sig_frame *f = &c->fr[c->depth - 1];
        if (f->i < f->sig->n)
            return;
        if (--f->left > 0) {
            f->i = 0;
            return;
        }
        if (--c->depth > 0)
            c->fr[c->depth - 1].i++;
    }
}

/* The run at the cursor and the bytes left in it; false at the end. */
static bool cur_run(sig_cursor *c, MPI_Datatype *basic, size_t *left) {
    if (c->depth == 0)
        return false;
    for (;;) {
        const sig_frame *f = &c->fr[c->depth - 1];
        const sig_item *it = &f->sig->items[f->i];
        if (!it->body) {
            *basic = it->basic;
            *left = item_bytes(it) - c->off;
            /* count elements of a basic type: one run of count passes. */
            if (f->sig->n == 1)
                *left += (f->left - 1) * item_bytes(it);
            return true;
        }
        c->fr[c->depth++] = (sig_frame){it->body, 0, it->count};
    }
}

/* Consumes n bytes (at most what is left), whole passes and items at a
 * time where they fit, so that skipping a long stretch costs its structure,
 * not its elements. */
static void cur_skip(sig_cursor *c, size_t n) {
    while (n > 0 && c->depth > 0) {
        sig_frame *f = &c->fr[c->depth - 1];
        if (c->off == 0 && f->i == 0 && f->left > 1 && n >= f->sig->bytes) {
            size_t q = MIN(n / f->sig->bytes, f->left - 1);
            f->left -= q;
            n -= q * f->sig->bytes;
            c->elems += q * f->sig->elems;
            continue;
        }
        const sig_item *it = &f->sig->items[f->i];
        size_t rest = item_bytes(it) - c->off;
        if (n >= rest) {
            n -= rest;
            c->elems += item_elems(it);
            cur_next(c);
        } else if (it->body) {
            size_t q = n / it->body->bytes;
            n -= q * it->body->bytes;
            c->elems += q * it->body->elems;
            c->fr[c->depth++] = (sig_frame){it->body, 0, it->count - q};
        } else {
            c->off += n;
            n = 0;
        }
    }
}

/* Bytes from the cursor on that both cursors are sure to agree on because
 * they are at the same structure: the rest of a pass over one signature
 * (and further passes), or passes over one repeat body.  Both must be at
 * the start of an item. */
static size_t cur_common(const sig_cursor *a, const sig_cursor *b) {
    if (a->depth == 0 || b->depth == 0 || a->off != 0 || b->off != 0)
        return 0;
    const sig_frame *fa = &a->fr[a->depth - 1], *fb = &b->fr[b->depth - 1];
    if (fa->sig == fb->sig && fa->i == fb->i) {
        size_t rest = 0;
        for (guint k = fa->i; k < fa->sig->n; k++)
            rest += item_bytes(&fa->sig->items[k]);
        return rest + (MIN(fa->left, fb->left) - 1) * fa->sig->bytes;
    }
    /* Passes over a body ahead of each: those of the frame when at its
     * start, those of the current item when it is a repeat. */
    const sig_item *ia = &fa->sig->items[fa->i], *ib = &fb->sig->items[fb->i];
    const sim_typesig *ba[2] = {fa->i == 0 ? fa->sig : NULL, ia->body};
    const sim_typesig *bb[2] = {fb->i == 0 ? fb->sig : NULL, ib->body};
    size_t ka[2] = {fa->left, ia->count}, kb[2] = {fb->left, ib->count}, common = 0;
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++)
            if (ba[x] && ba[x] == bb[y])
                common = MAX(common, MIN(ka[x], kb[y]) * ba[x]->bytes);
    return common;
}

/* What the stream of any number of passes over sig repeats, as far as the
 * structure shows: a repeat's body, the one basic type of a single run (as
 * that type's own signature), or sig itself.  Two streams with the same
 * period are equal over their common length. */
static const sim_typesig *sig_period(const sim_typesig *sig) {
    if (sig->n == 1 && sig->items[0].body)
        return sig->items[0].body;
    if (sig->n == 1)
        return sim_dt_get(sig->items[0].basic)->sig;
    return sig;
}

static size_t gcd(size_t a, size_t b) {
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static bool is_wildcard(MPI_Datatype basic) {
    return basic == MPI_BYTE || basic == MPI_PACKED;
}

/* Compares the first `limit` bytes of a (acount passes) and b (bcount
 * passes), both at least that long, byte by byte: each byte belongs to one
 * basic element on each side and the two basic types must be equal, or,
 * when wild, either may be MPI_BYTE or MPI_PACKED.  On the first byte that
 * differs returns false with the element of a it belongs to (counted from
 * 0) and the two basic types there. */
static bool sig_compare(const sim_typesig *a, size_t acount, const sim_typesig *b, size_t bcount,
                        size_t limit, bool wild, size_t *elem, MPI_Datatype *ta, MPI_Datatype *tb) {
    /* Interned: a message and a receive of the same type share the pointer,
     * and a stream equals itself over any common length. */
    if (limit == 0 || a == b)
        return true;
    const sim_typesig *pa = sig_period(a), *pb = sig_period(b);
    if (pa == pb)
        return true;
    /* Both streams repeat from their start: with no difference in the first
     * lcm of their periods, there is none anywhere. */
    size_t g = gcd(pa->bytes, pb->bytes), span;
    if (!__builtin_mul_overflow(pa->bytes / g, pb->bytes, &span))
        limit = MIN(limit, span);
    sig_cursor ca, cb;
    cur_init(&ca, a, acount);
    cur_init(&cb, b, bcount);
    bool same = true;
    size_t done = 0;
    MPI_Datatype x, y;
    size_t xl, yl;
    while (done < limit) {
        size_t step = MIN(cur_common(&ca, &cb), limit - done);
        if (step > 0) {
            cur_skip(&ca, step);
            cur_skip(&cb, step);
            done += step;
            continue;
        }
        if (!cur_run(&ca, &x, &xl) || !cur_run(&cb, &y, &yl))
            break;
        if (wild && is_wildcard(x))
            step = xl;
        else if (wild && is_wildcard(y))
            step = yl;
        else if (x == y)
            step = MIN(xl, yl);
        else {
            *elem = ca.elems + ca.off / sim_dt_basic_size(x);
            *ta = x;
            *tb = y;
            same = false;
            break;
        }
        step = MIN(step, limit - done);
        cur_skip(&ca, step);
        cur_skip(&cb, step);
        done += step;
    }
    cur_fini(&ca);
    cur_fini(&cb);
    return same;
}

const sim_typesig *sim_dt_typesig(const sim_datatype *dt) {
    return dt->sig;
}

bool sim_typesig_matches(const sim_typesig *msg, size_t msg_count, const sim_datatype *dt,
                         int count, char **why) {
    size_t cap = count > 0 ? dt->size * (size_t)count : 0;
    size_t limit = MIN(msg->bytes * msg_count, cap);
    size_t elem;
    MPI_Datatype a, b;
    if (sig_compare(msg, msg_count, dt->sig, count > 0 ? (size_t)count : 0, limit, true, &elem, &a,
                    &b))
        return true;
    if (why)
        *why = g_strdup_printf("element %zu is %s in the message but %s in the receive type", elem,
                               sim_dt_name(a), sim_dt_name(b));
    return false;
}

bool sim_typesig_same(const sim_typesig *a, size_t acount, const sim_typesig *b, size_t bcount) {
    size_t bytes = a->bytes * acount, elem;
    MPI_Datatype ta, tb;
    return bytes == b->bytes * bcount &&
           sig_compare(a, acount, b, bcount, bytes, false, &elem, &ta, &tb);
}

bool sim_typesig_each_run(const sim_typesig *sig, size_t count, sim_sigrun_fn fn, void *data) {
    sig_cursor c;
    cur_init(&c, sig, count);
    MPI_Datatype basic, pending = MPI_DATATYPE_NULL;
    size_t left, n = 0;
    bool go = true;
    while (go && cur_run(&c, &basic, &left)) {
        /* Runs split by the structure (the end of one pass and the start of
         * the next, say) are reported joined. */
        if (n > 0 && basic != pending) {
            go = fn(pending, n, data);
            n = 0;
        }
        pending = basic;
        n += left / sim_dt_basic_size(basic);
        cur_skip(&c, left);
    }
    if (go && n > 0)
        go = fn(pending, n, data);
    cur_fini(&c);
    return go;
}

/* The state of sim_dt_each_element: the signature's cursor, consumed as
 * the type map's blocks come, in the same (typemap) order. */
typedef struct element_walk {
    sig_cursor c;
    sim_element_fn fn;
    void *data;
    bool stopped;
} element_walk;

static void element_block(MPI_Aint off, size_t len, void *p) {
    element_walk *w = p;
    size_t pos = 0;
    while (!w->stopped && pos < len) {
        MPI_Datatype basic;
        size_t left;
        if (!cur_run(&w->c, &basic, &left)) {
            w->stopped = true;
            return;
        }
        size_t take = MIN(left, len - pos), size = sim_dt_basic_size(basic);
        if (take < size) { /* a block ending inside an element: not a type map */
            w->stopped = true;
            return;
        }
        take -= take % size;
        if (!w->fn(basic, off + (MPI_Aint)pos, take / size, w->data))
            w->stopped = true;
        cur_skip(&w->c, take);
        pos += take;
    }
}

bool sim_dt_each_element(const sim_datatype *dt, int count, sim_element_fn fn, void *data) {
    if (count <= 0 || dt->size == 0)
        return true;
    element_walk w = {.fn = fn, .data = data};
    cur_init(&w.c, dt->sig, (size_t)count);
    sim_dt_each_block(dt, count, element_block, &w);
    cur_fini(&w.c);
    return !w.stopped;
}

/* ---------------------------------------------------------------------- */
/* Counting basic elements                                                 */

MPI_Count sim_dt_elements_of_x(const sim_datatype *dt, size_t bytes) {
    const sim_typesig *s = dt->sig;
    if (s->bytes == 0)
        return 0;
    size_t n = bytes / s->bytes * s->elems, rem = bytes % s->bytes;
    /* The partial pass: whole items, then into the item the bytes end in. */
    for (guint i = 0; rem > 0; i++) {
        const sig_item *it = &s->items[i];
        size_t ib = item_bytes(it);
        if (rem >= ib) {
            n += item_elems(it);
            rem -= ib;
        } else if (it->body) {
            n += rem / it->body->bytes * it->body->elems;
            rem %= it->body->bytes;
            s = it->body;
            i = (guint)-1; /* from the body's first item */
        } else {
            size_t bs = sim_dt_basic_size(it->basic);
            if (rem % bs != 0)
                return MPI_UNDEFINED;
            n += rem / bs;
            rem = 0;
        }
    }
    return (MPI_Count)n;
}

size_t sim_dt_bytes_of_elements(const sim_datatype *dt, MPI_Count elements) {
    const sim_typesig *s = dt->sig;
    if (s->elems == 0 || elements <= 0)
        return 0;
    size_t want = (size_t)elements;
    size_t bytes = want / s->elems * s->bytes, rem = want % s->elems;
    /* The partial pass, as in sim_dt_elements_of_x with elements for bytes. */
    for (guint i = 0; rem > 0; i++) {
        const sig_item *it = &s->items[i];
        size_t ie = item_elems(it);
        if (rem >= ie) {
            bytes += item_bytes(it);
            rem -= ie;
        } else if (it->body) {
            bytes += rem / it->body->elems * it->body->bytes;
            rem %= it->body->elems;
            s = it->body;
            i = (guint)-1;
        } else {
            bytes += rem * sim_dt_basic_size(it->basic);
            rem = 0;
        }
    }
    return bytes;
}

int sim_dt_elements_of(const sim_datatype *dt, size_t bytes) {
    MPI_Count n = sim_dt_elements_of_x(dt, bytes);
    return n > INT_MAX ? MPI_UNDEFINED : (int)n;
}
