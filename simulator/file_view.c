/*
 * file_view.c - MPI-IO file views (see file_view.h).
 */
#include "simulator/file_view.h"

#include <glib.h>

void sim_fview_default(sim_fview *v) {
    v->disp = 0;
    v->esize = 1;
    v->tsize = 1;
    v->extent = 1;
    v->nblocks = 1;
    v->blocks = g_new0(sim_fview_block, 1);
    v->blocks[0].len = 1;
}

void sim_fview_clear(sim_fview *v) {
    g_free(v->blocks);
    v->blocks = NULL;
    v->nblocks = 0;
}

void sim_fview_copy(sim_fview *dst, const sim_fview *src) {
    g_free(dst->blocks);
    *dst = *src;
    dst->blocks = g_memdup2(src->blocks, sizeof(sim_fview_block) * src->nblocks);
}

typedef struct collect_ctx {
    GArray *blocks;
    size_t total;
    bool bad_order;
    MPI_Aint bad_off;
} collect_ctx;

static void collect(MPI_Aint off, size_t len, void *data) {
    collect_ctx *c = data;
    if (len == 0)
        return;
    if (off < 0)
        c->bad_order = true, c->bad_off = off;
    if (c->blocks->len) {
        sim_fview_block *last = &g_array_index(c->blocks, sim_fview_block, c->blocks->len - 1);
        if (off < last->off + (MPI_Aint)last->len && !c->bad_order)
            c->bad_order = true, c->bad_off = off;
        if (off == last->off + (MPI_Aint)last->len) {
            last->len += len;
            c->total += len;
            return;
        }
    }
    sim_fview_block b = {off, len, c->total};
    g_array_append_val(c->blocks, b);
    c->total += len;
}

int sim_fview_make(sim_fview *v, MPI_Offset disp, const sim_datatype *etype,
                   const sim_datatype *filetype, char **why) {
    sim_fview_clear(v);
    if (disp < 0) {
        *why = g_strdup_printf("disp %lld is negative", (long long)disp);
        return MPI_ERR_ARG;
    }
    size_t esize = sim_dt_size(etype);
    if (esize == 0) {
        *why = g_strdup("the etype holds no data");
        return MPI_ERR_TYPE;
    }
    collect_ctx c = {g_array_new(FALSE, FALSE, sizeof(sim_fview_block)), 0, false, 0};
    sim_dt_each_block(filetype, 1, collect, &c);
    if (c.total == 0) {
        g_array_free(c.blocks, TRUE);
        *why = g_strdup("the filetype holds no data");
        return MPI_ERR_TYPE;
    }
    if (c.bad_order) {
        g_array_free(c.blocks, TRUE);
        *why = g_strdup_printf("the filetype's type map has a displacement (%ld) that is negative "
                               "or below the one before; MPI 3.1 13.3 requires them non-negative "
                               "and monotonically nondecreasing",
                               (long)c.bad_off);
        return MPI_ERR_TYPE;
    }
    if (c.total % esize != 0) {
        g_array_free(c.blocks, TRUE);
        *why = g_strdup_printf("the filetype's %zu data bytes are not a whole number of etypes "
                               "of %zu bytes (MPI 3.1 13.3: the filetype must be derived from "
                               "the etype)",
                               c.total, esize);
        return MPI_ERR_TYPE;
    }
    MPI_Aint extent = sim_dt_extent(filetype);
    if (extent <= 0) {
        g_array_free(c.blocks, TRUE);
        *why = g_strdup_printf("the filetype's extent %ld is not positive", (long)extent);
        return MPI_ERR_TYPE;
    }
    v->disp = disp;
    v->esize = esize;
    v->tsize = c.total;
    v->extent = extent;
    v->nblocks = c.blocks->len;
    v->blocks = (sim_fview_block *)(void *)g_array_free(c.blocks, FALSE);
    return MPI_SUCCESS;
}

/* The block that data byte r of a copy lies in (r < tsize). */
static size_t block_of(const sim_fview *v, size_t r) {
    size_t lo = 0, hi = v->nblocks;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (v->blocks[mid].before <= r)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

MPI_Offset sim_fview_byte(const sim_fview *v, MPI_Offset k) {
    MPI_Offset copy = k / (MPI_Offset)v->tsize;
    size_t r = (size_t)(k % (MPI_Offset)v->tsize);
    const sim_fview_block *b = &v->blocks[block_of(v, r)];
    return v->disp + copy * v->extent + b->off + (MPI_Offset)(r - b->before);
}

bool sim_fview_each_run(const sim_fview *v, MPI_Offset k, size_t n, sim_fview_fn fn, void *user) {
    MPI_Offset copy = k / (MPI_Offset)v->tsize;
    size_t r = (size_t)(k % (MPI_Offset)v->tsize);
    size_t bi = block_of(v, r);
    size_t done = 0;
    /* The run being gathered, given to fn once the next one does not
     * continue it in the file. */
    MPI_Offset run_off = 0;
    size_t run_len = 0, run_pos = 0;
    while (done < n) {
        const sim_fview_block *b = &v->blocks[bi];
        size_t in = r - b->before;
        size_t take = MIN(b->len - in, n - done);
        MPI_Offset at = v->disp + copy * v->extent + b->off + (MPI_Offset)in;
        if (run_len && run_off + (MPI_Offset)run_len == at) {
            run_len += take;
        } else {
            if (run_len && !fn(run_off, run_len, run_pos, user))
                return false;
            run_off = at;
            run_len = take;
            run_pos = done;
        }
        done += take;
        r += take;
        /* Either the block is used up or so is the request. */
        if (++bi == v->nblocks) {
            bi = 0;
            r = 0;
            copy++;
        }
    }
    return run_len == 0 || fn(run_off, run_len, run_pos, user);
}
