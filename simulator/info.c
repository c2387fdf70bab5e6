/*
 * info.c - info objects and hints (see info.h).
 */
#include "simulator/info.h"

#include <string.h>

#include <glib.h>

#include "simulator/handle.h"

struct sim_info {
    GPtrArray *keys;   /* char *, in the order first set */
    GPtrArray *values; /* char *, values[i] belongs to keys[i] */
};

typedef struct rank_info {
    GPtrArray *infos;  /* sim_info * by handle index; NULL where free */
    GHashTable *hints; /* hint key (kind << 32 | handle) -> sim_info * */
} rank_info;

static rank_info *g_ranks;
static int g_nranks;
static sim_info *g_env; /* MPI_INFO_ENV, the same for every rank */

static sim_info *info_new(void) {
    sim_info *i = g_new0(sim_info, 1);
    i->keys = g_ptr_array_new_with_free_func(g_free);
    i->values = g_ptr_array_new_with_free_func(g_free);
    return i;
}

static void info_destroy(gpointer p) {
    sim_info *i = p;
    if (!i)
        return;
    g_ptr_array_free(i->keys, TRUE);
    g_ptr_array_free(i->values, TRUE);
    g_free(i);
}

static sim_info *info_copy(const sim_info *from) {
    sim_info *i = info_new();
    for (guint k = 0; from && k < from->keys->len; k++) {
        g_ptr_array_add(i->keys, g_strdup(g_ptr_array_index(from->keys, k)));
        g_ptr_array_add(i->values, g_strdup(g_ptr_array_index(from->values, k)));
    }
    return i;
}

sim_info *sim_info_clone(const sim_info *from) {
    return info_copy(from);
}

void sim_info_release(sim_info *info) {
    info_destroy(info);
}

void sim_info_init(int nranks) {
    sim_info_fini();
    g_nranks = nranks;
    g_ranks = g_new0(rank_info, nranks);
    for (int r = 0; r < nranks; r++) {
        g_ranks[r].infos = g_ptr_array_new_with_free_func(info_destroy);
        g_ranks[r].hints = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, info_destroy);
    }
    g_env = info_new();
    char *n = g_strdup_printf("%d", nranks);
    sim_info_set(g_env, "maxprocs", n);
    g_free(n);
}

void sim_info_fini(void) {
    for (int r = 0; r < g_nranks; r++) {
        g_ptr_array_free(g_ranks[r].infos, TRUE);
        g_hash_table_destroy(g_ranks[r].hints);
    }
    g_free(g_ranks);
    g_ranks = NULL;
    g_nranks = 0;
    info_destroy(g_env);
    g_env = NULL;
}

void sim_info_set_command(const char *command) {
    sim_info_set(g_env, "command", command);
}

bool sim_info_is_env(MPI_Info h) {
    return h == MPI_INFO_ENV;
}

sim_info *sim_info_lookup(int rank, MPI_Info h, char **why) {
    if (h == MPI_INFO_ENV)
        return g_env;
    if (h == MPI_INFO_NULL) {
        *why = g_strdup("is MPI_INFO_NULL");
        return NULL;
    }
    if (SIM_HANDLE_KIND(h) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(h) != SIM_OBJ_INFO) {
        *why = g_strdup_printf("0x%08x is not an info handle", (unsigned)h);
        return NULL;
    }
    rank_info *ri = &g_ranks[rank];
    guint i = SIM_HANDLE_INDEX(h);
    sim_info *info = i < ri->infos->len ? g_ptr_array_index(ri->infos, i) : NULL;
    if (!info)
        *why = g_strdup_printf("0x%08x was freed, or never created by this rank", (unsigned)h);
    return info;
}

static MPI_Info insert(int rank, sim_info *info) {
    rank_info *ri = &g_ranks[rank];
    guint i = 0;
    while (i < ri->infos->len && g_ptr_array_index(ri->infos, i))
        i++;
    if (i == ri->infos->len)
        g_ptr_array_add(ri->infos, info);
    else
        g_ptr_array_index(ri->infos, i) = info;
    return SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_INFO, i);
}

MPI_Info sim_info_create(int rank) {
    return insert(rank, info_new());
}

MPI_Info sim_info_dup(int rank, const sim_info *from) {
    return insert(rank, info_copy(from));
}

void sim_info_free(int rank, MPI_Info h) {
    rank_info *ri = &g_ranks[rank];
    guint i = SIM_HANDLE_INDEX(h);
    info_destroy(g_ptr_array_index(ri->infos, i));
    g_ptr_array_index(ri->infos, i) = NULL;
    /* Trailing free slots go, so the table's length is no history. */
    while (ri->infos->len && !g_ptr_array_index(ri->infos, ri->infos->len - 1))
        g_ptr_array_set_size(ri->infos, ri->infos->len - 1);
}

int sim_info_nkeys(const sim_info *info) {
    return (int)info->keys->len;
}

const char *sim_info_nthkey(const sim_info *info, int n) {
    return g_ptr_array_index(info->keys, (guint)n);
}

static int key_index(const sim_info *info, const char *key) {
    for (guint k = 0; k < info->keys->len; k++)
        if (strcmp(g_ptr_array_index(info->keys, k), key) == 0)
            return (int)k;
    return -1;
}

const char *sim_info_get(const sim_info *info, const char *key) {
    int k = key_index(info, key);
    return k >= 0 ? g_ptr_array_index(info->values, (guint)k) : NULL;
}

void sim_info_set(sim_info *info, const char *key, const char *value) {
    int k = key_index(info, key);
    if (k >= 0) {
        g_free(g_ptr_array_index(info->values, (guint)k));
        g_ptr_array_index(info->values, (guint)k) = g_strdup(value);
        return;
    }
    g_ptr_array_add(info->keys, g_strdup(key));
    g_ptr_array_add(info->values, g_strdup(value));
}

bool sim_info_delete(sim_info *info, const char *key) {
    int k = key_index(info, key);
    if (k < 0)
        return false;
    g_ptr_array_remove_index(info->keys, (guint)k);
    g_ptr_array_remove_index(info->values, (guint)k);
    return true;
}

/* ---------------------------------------------------------------------- */
/* Hints                                                                   */

static gint64 hint_key(sim_hint_kind kind, int handle) {
    return ((gint64)kind << 32) | (gint64)(guint32)handle;
}

void sim_hints_set(int world_rank, sim_hint_kind kind, int handle, const sim_info *info) {
    gint64 *k = g_new(gint64, 1);
    *k = hint_key(kind, handle);
    if (info)
        g_hash_table_insert(g_ranks[world_rank].hints, k, info_copy(info));
    else {
        g_hash_table_remove(g_ranks[world_rank].hints, k);
        g_free(k);
    }
}

void sim_hints_update(int world_rank, sim_hint_kind kind, int handle, const sim_info *info) {
    gint64 k = hint_key(kind, handle);
    sim_info *h = g_hash_table_lookup(g_ranks[world_rank].hints, &k);
    if (!h) {
        sim_hints_set(world_rank, kind, handle, info);
        return;
    }
    for (guint i = 0; info && i < info->keys->len; i++)
        sim_info_set(h, g_ptr_array_index(info->keys, i), g_ptr_array_index(info->values, i));
}

const sim_info *sim_hints_get(int world_rank, sim_hint_kind kind, int handle) {
    gint64 k = hint_key(kind, handle);
    return g_hash_table_lookup(g_ranks[world_rank].hints, &k);
}

void sim_hints_drop(int world_rank, sim_hint_kind kind, int handle) {
    gint64 k = hint_key(kind, handle);
    g_hash_table_remove(g_ranks[world_rank].hints, &k);
}

bool sim_hints_true(int world_rank, sim_hint_kind kind, int handle, const char *key) {
    const sim_info *h = sim_hints_get(world_rank, kind, handle);
    const char *v = h ? sim_info_get(h, key) : NULL;
    return v && strcmp(v, "true") == 0;
}

/* ---------------------------------------------------------------------- */
/* State                                                                   */

static void digest_info(const sim_info *info, sim_digest_feed feed, void *user) {
    int64_t n = info->keys->len;
    feed(user, &n, sizeof n);
    for (guint k = 0; k < info->keys->len; k++) {
        const char *key = g_ptr_array_index(info->keys, k);
        const char *val = g_ptr_array_index(info->values, k);
        feed(user, key, strlen(key) + 1);
        feed(user, val, strlen(val) + 1);
    }
}

static gint cmp_key(gconstpointer a, gconstpointer b) {
    gint64 x = **(const gint64 *const *)a, y = **(const gint64 *const *)b;
    return (x > y) - (x < y);
}

/* The table's keys in increasing order (its own order is no state). */
static GPtrArray *sorted_keys(GHashTable *t) {
    GPtrArray *keys = g_ptr_array_sized_new(g_hash_table_size(t));
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, t);
    while (g_hash_table_iter_next(&it, &k, NULL))
        g_ptr_array_add(keys, k);
    g_ptr_array_sort(keys, cmp_key);
    return keys;
}

void sim_info_digest_rank(int rank, sim_digest_feed feed, void *user) {
    rank_info *ri = &g_ranks[rank];
    int64_t sizes[2] = {ri->infos->len, g_hash_table_size(ri->hints)};
    feed(user, sizes, sizeof sizes);
    for (guint i = 0; i < ri->infos->len; i++) {
        const sim_info *info = g_ptr_array_index(ri->infos, i);
        if (!info)
            continue;
        int64_t idx = i;
        feed(user, &idx, sizeof idx);
        digest_info(info, feed, user);
    }
    if (g_hash_table_size(ri->hints) == 0)
        return;
    GPtrArray *keys = sorted_keys(ri->hints);
    for (guint i = 0; i < keys->len; i++) {
        const gint64 *k = g_ptr_array_index(keys, i);
        feed(user, k, sizeof *k);
        digest_info(g_hash_table_lookup(ri->hints, k), feed, user);
    }
    g_ptr_array_free(keys, TRUE);
}
