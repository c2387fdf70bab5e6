/*
 * topo.c - Cartesian topologies (MPI 3.1 sections 7.5.1-7.5.5): checking a
 * grid, coordinates and ranks, shifts, the split of MPI_Cart_sub, and
 * MPI_Dims_create's balanced factorisation.  Pure arithmetic on dims and
 * periods; the communicators carrying a grid are comm.c's.
 */
#include <glib.h>
#include <limits.h>
#include <mpi.h>
#include <stdbool.h>
#include <string.h>

#include "simulator/comm.h"

static char *format_ints(int n, const int *v) {
    GString *s = g_string_new("(");
    for (int i = 0; i < n; i++)
        g_string_append_printf(s, i ? ", %d" : "%d", v[i]);
    g_string_append_c(s, ')');
    return g_string_free(s, FALSE);
}

/* ---------------------------------------------------------------------- */
/* Cartesian topologies                                                    */

int sim_cart_check(int ndims, const int dims[], int size, char **why) {
    if (ndims < 0) {
        *why = g_strdup_printf("ndims = %d is negative", ndims);
        return MPI_ERR_DIMS;
    }
    if (ndims > 0 && !dims) {
        *why = g_strdup("dims is NULL");
        return MPI_ERR_ARG;
    }
    long long prod = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0) {
            *why = g_strdup_printf("dims[%d] = %d is not positive", i, dims[i]);
            return MPI_ERR_DIMS;
        }
        /* Saturate: only "more than size" matters, and size fits an int. */
        prod = prod > size ? prod : prod * dims[i];
    }
    if (prod > size) {
        char *list = format_ints(ndims, dims);
        *why = g_strdup_printf("dims %s make a grid larger than the communicator's %d ranks", list,
                               size);
        g_free(list);
        return MPI_ERR_TOPOLOGY;
    }
    return MPI_SUCCESS;
}

void sim_cart_coords(int ndims, const int dims[], int rank, int coords[]) {
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = rank % dims[i];
        rank /= dims[i];
    }
}

int sim_cart_rank(int ndims, const int dims[], const int periods[], const int coords[], int *rank,
                  char **why) {
    int r = 0;
    for (int i = 0; i < ndims; i++) {
        int c = coords[i], d = dims[i];
        if (c < 0 || c >= d) {
            if (!periods[i]) {
                *why = g_strdup_printf("coords[%d] = %d is outside 0..%d in a non-periodic "
                                       "dimension",
                                       i, c, d - 1);
                return MPI_ERR_ARG;
            }
            c = (c % d + d) % d;
        }
        r = r * d + c;
    }
    *rank = r;
    return MPI_SUCCESS;
}

void sim_cart_shift(int ndims, const int dims[], const int periods[], int rank, int direction,
                    int disp, int *source, int *dest) {
    /* Moving along one dimension changes the rank by multiples of the
     * product of the faster-varying dimensions after it. */
    int stride = 1;
    for (int i = ndims - 1; i > direction; i--)
        stride *= dims[i];
    int d = dims[direction];
    int c = rank / stride % d;
    long long targets[2] = {(long long)c - disp, (long long)c + disp};
    int *outs[2] = {source, dest};
    for (int k = 0; k < 2; k++) {
        long long t = targets[k];
        if (t < 0 || t >= d) {
            if (!periods[direction]) {
                *outs[k] = MPI_PROC_NULL;
                continue;
            }
            t = (t % d + d) % d;
        }
        *outs[k] = rank + (int)(t - c) * stride;
    }
}

void sim_cart_sub_color_key(int ndims, const int dims[], const int remain_dims[], int rank,
                            int *color, int *key) {
    int col = 0, k = 0, cmul = 1, kmul = 1;
    for (int i = ndims - 1; i >= 0; i--) {
        int c = rank % dims[i];
        rank /= dims[i];
        if (remain_dims[i]) {
            k += c * kmul;
            kmul *= dims[i];
        } else {
            col += c * cmul;
            cmul *= dims[i];
        }
    }
    *color = col;
    *key = k;
}

/* r^e <= x, without overflow. */
static bool pow_le(long long r, int e, long long x) {
    long long acc = 1;
    for (int i = 0; i < e; i++) {
        if (r > 1 && acc > x / r)
            return false;
        acc *= r;
    }
    return acc <= x;
}

/* Largest r with r^e <= x (x >= 1, e >= 1). */
static long long iroot_floor(long long x, int e) {
    long long lo = 1, hi = x;
    while (lo < hi) {
        long long mid = lo + (hi - lo + 1) / 2;
        if (pow_le(mid, e, x))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Smallest r with r^e >= x. */
static long long iroot_ceil(long long x, int e) {
    long long r = iroot_floor(x, e);
    return pow_le(r, e, x - 1) ? r + 1 : r;
}

typedef struct dims_search {
    int k;           /* dimensions to fill */
    GArray *divs;    /* divisors of the product, ascending (long long) */
    long long *cur;  /* [k], non-increasing */
    long long *best; /* [k] */
    long long best_spread;
} dims_search;

/* Depth-first over non-increasing factorisations, smallest candidate first so
 * the balanced ones come early and bound the rest. */
static void dims_search_from(dims_search *s, int i, long long rem, long long maxd) {
    int left = s->k - i;
    if (left == 1) {
        if (rem > maxd)
            return;
        s->cur[i] = rem;
        long long spread = s->cur[0] - rem;
        if (spread < s->best_spread) {
            s->best_spread = spread;
            memcpy(s->best, s->cur, sizeof(long long) * (size_t)s->k);
        }
        return;
    }
    long long lo = iroot_ceil(rem, left);
    for (guint j = 0; j < s->divs->len; j++) {
        long long d = g_array_index(s->divs, long long, j);
        if (d < lo || rem % d)
            continue;
        if (d > maxd || d > rem)
            break;
        /* The smallest of the remaining values is at most min(d, root). */
        long long rest_root = iroot_floor(rem / d, left - 1);
        long long top = i == 0 ? d : s->cur[0];
        long long bound = top - (rest_root < d ? rest_root : d);
        if (bound >= s->best_spread) {
            if (i == 0) /* the bound only grows with d at the top level */
                break;
            continue;
        }
        s->cur[i] = d;
        dims_search_from(s, i + 1, rem / d, d);
    }
}

int sim_dims_create(int nnodes, int ndims, int dims[], char **why) {
    if (ndims < 0) {
        *why = g_strdup_printf("ndims = %d is negative", ndims);
        return MPI_ERR_DIMS;
    }
    if (nnodes < 1) {
        *why = g_strdup_printf("nnodes = %d is not positive", nnodes);
        return MPI_ERR_ARG;
    }
    if (ndims > 0 && !dims) {
        *why = g_strdup("dims is NULL");
        return MPI_ERR_ARG;
    }
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0) {
            *why = g_strdup_printf("dims[%d] = %d is negative", i, dims[i]);
            return MPI_ERR_DIMS;
        }
        if (dims[i] == 0)
            nfree++;
        else
            fixed = fixed > nnodes ? fixed : fixed * dims[i]; /* saturate above nnodes */
    }
    if (nnodes % fixed != 0 || (nfree == 0 && fixed != nnodes)) {
        char *list = format_ints(ndims, dims);
        if (nfree == 0)
            *why = g_strdup_printf("dims %s has no zero entry and its product is not nnodes = %d",
                                   list, nnodes);
        else
            *why = g_strdup_printf("nnodes = %d is not a multiple of the product of the non-zero "
                                   "entries of dims %s",
                                   nnodes, list);
        g_free(list);
        return MPI_ERR_DIMS;
    }
    if (nfree == 0)
        return MPI_SUCCESS;

    long long m = nnodes / fixed;
    dims_search s = {.k = nfree, .best_spread = LLONG_MAX};
    s.divs = g_array_new(FALSE, FALSE, sizeof(long long));
    GArray *high = g_array_new(FALSE, FALSE, sizeof(long long));
    for (long long d = 1; d * d <= m; d++) {
        if (m % d)
            continue;
        g_array_append_val(s.divs, d);
        long long q = m / d;
        if (q != d)
            g_array_prepend_val(high, q);
    }
    g_array_append_vals(s.divs, high->data, high->len);
    g_array_free(high, TRUE);
    s.cur = g_new0(long long, nfree);
    s.best = g_new0(long long, nfree);
    dims_search_from(&s, 0, m, m);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = (int)s.best[j++];
    g_free(s.cur);
    g_free(s.best);
    g_array_free(s.divs, TRUE);
    return MPI_SUCCESS;
}
