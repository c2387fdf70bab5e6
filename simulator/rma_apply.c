/*
 * rma_apply.c - the data movement of RMA operations (see rma_apply.h).
 */
#include "simulator/rma_apply.h"

#include <glib.h>
#include <string.h>

#include "simulator/handle.h"
#include "simulator/op.h"

static size_t bytes_of(MPI_Datatype type, int count) {
    return count > 0 ? sim_dt_size(sim_dt_get(type)) * (size_t)count : 0;
}

MPI_Datatype sim_rma_element_type(MPI_Datatype type) {
    const sim_datatype *dt = sim_dt_get(type);
    if (!dt)
        return MPI_DATATYPE_NULL;
    MPI_Datatype basic = sim_dt_uniform_basic(dt);
    if (basic != MPI_DATATYPE_NULL)
        return basic;
    return sim_dt_is_predefined(type) ? type : MPI_DATATYPE_NULL;
}

bool sim_rma_span(const sim_datatype *dt, int count, MPI_Aint *lo, MPI_Aint *hi) {
    if (count <= 0 || sim_dt_size(dt) == 0)
        return false;
    MPI_Aint tlb = sim_dt_true_lb(dt), text = sim_dt_true_extent(dt);
    MPI_Aint reach = (MPI_Aint)(count - 1) * sim_dt_extent(dt);
    *lo = tlb + (reach < 0 ? reach : 0);
    *hi = tlb + text + (reach > 0 ? reach : 0);
    return true;
}

/* ---------------------------------------------------------------------- */
/* Checks                                                                  */

static int fail(char **why, int errclass, char *msg) {
    *why = msg;
    return errclass;
}

/* `from` (count elements of ftype) moved into room for `rcount` of rtype,
 * as a message would be: no more bytes than the room, same basic types. */
static int check_move(const char *from_name, MPI_Datatype ftype, int fcount, const char *to_name,
                      MPI_Datatype rtype, int rcount, char **why) {
    size_t have = bytes_of(ftype, fcount), room = bytes_of(rtype, rcount);
    if (have > room)
        return fail(why, MPI_ERR_TRUNCATE,
                    g_strdup_printf("the %s data (%d x %s, %zu bytes) does not fit into the %s "
                                    "(%d x %s, %zu bytes)",
                                    from_name, fcount, sim_dt_name(ftype), have, to_name, rcount,
                                    sim_dt_name(rtype), room));
    char *mismatch = NULL;
    if (have && !sim_typesig_matches(sim_dt_typesig(sim_dt_get(ftype)), (size_t)fcount,
                                     sim_dt_get(rtype), rcount, &mismatch)) {
        char *m = g_strdup_printf("the %s and %s datatypes do not match: %s", from_name, to_name,
                                  mismatch ? mismatch : "different basic types");
        g_free(mismatch);
        return fail(why, MPI_ERR_TYPE, m);
    }
    return MPI_SUCCESS;
}

static bool predefined_op(MPI_Op op) {
    return sim_op_valid(op) && SIM_HANDLE_KIND(op) == SIM_HKIND_BUILTIN;
}

static int check_op(const sim_rma_xfer *x, MPI_Datatype type, bool fetching, char **why) {
    if (!sim_op_valid(x->op))
        return fail(why, MPI_ERR_OP, g_strdup_printf("op is %s", sim_op_name(x->op)));
    if (!predefined_op(x->op))
        return fail(
            why, MPI_ERR_OP,
            g_strdup_printf("%s is a user-defined operation; RMA accumulate operations take "
                            "only predefined ones (MPI 3.1 section 11.3.4)",
                            sim_op_name(x->op)));
    if (x->op == MPI_NO_OP && !fetching)
        return fail(why, MPI_ERR_OP,
                    g_strdup("MPI_NO_OP is allowed only in MPI_Get_accumulate, "
                             "MPI_Rget_accumulate and MPI_Fetch_and_op"));
    char *msg = NULL;
    if (!sim_op_defined_for(x->op, type, &msg))
        return fail(why, MPI_ERR_OP, msg ? msg : g_strdup("the operation does not apply"));
    return MPI_SUCCESS;
}

/* Accumulate-style data: one predefined element type on both sides. */
static int check_elements(const char *a_name, MPI_Datatype a, const char *b_name, MPI_Datatype b,
                          char **why) {
    MPI_Datatype ea = sim_rma_element_type(a), eb = sim_rma_element_type(b);
    if (ea == MPI_DATATYPE_NULL || eb == MPI_DATATYPE_NULL) {
        MPI_Datatype bad = ea == MPI_DATATYPE_NULL ? a : b;
        return fail(why, MPI_ERR_TYPE,
                    g_strdup_printf("the %s datatype %s mixes basic types; accumulate operations "
                                    "need a predefined type or a derived type of one predefined "
                                    "type",
                                    ea == MPI_DATATYPE_NULL ? a_name : b_name, sim_dt_name(bad)));
    }
    if (ea != eb)
        return fail(why, MPI_ERR_TYPE,
                    g_strdup_printf("the %s elements are %s but the %s elements are %s; an "
                                    "accumulate needs the same predefined type on both sides",
                                    a_name, sim_dt_name(ea), b_name, sim_dt_name(eb)));
    return MPI_SUCCESS;
}

static int check_single(const char *what, MPI_Datatype type, char **why) {
    if (!sim_dt_is_predefined(type))
        return fail(why, MPI_ERR_TYPE,
                    g_strdup_printf("%s takes one element of a predefined datatype, not %s", what,
                                    sim_dt_name(type)));
    return MPI_SUCCESS;
}

int sim_rma_check(const sim_rma_xfer *x, char **why) {
    int rc;
    switch (x->kind) {
    case SIM_RMA_PUT:
        return check_move("origin", x->otype, x->ocount, "target", x->ttype, x->tcount, why);
    case SIM_RMA_GET:
        return check_move("target", x->ttype, x->tcount, "origin buffer", x->otype, x->ocount, why);
    case SIM_RMA_ACC:
    case SIM_RMA_GET_ACC: {
        bool fetch = x->kind == SIM_RMA_GET_ACC;
        if ((rc = check_op(x, x->ttype, fetch, why)) != MPI_SUCCESS)
            return rc;
        if (fetch) {
            if ((rc = check_elements("target", x->ttype, "result", x->rtype, why)) != MPI_SUCCESS)
                return rc;
            if ((rc = check_move("target", x->ttype, x->tcount, "result buffer", x->rtype,
                                 x->rcount, why)) != MPI_SUCCESS)
                return rc;
        }
        if (fetch && x->op == MPI_NO_OP) /* the origin arguments are ignored */
            return MPI_SUCCESS;
        if ((rc = check_elements("origin", x->otype, "target", x->ttype, why)) != MPI_SUCCESS)
            return rc;
        return check_move("origin", x->otype, x->ocount, "target", x->ttype, x->tcount, why);
    }
    case SIM_RMA_FOP:
        if ((rc = check_single("MPI_Fetch_and_op", x->ttype, why)) != MPI_SUCCESS)
            return rc;
        return check_op(x, x->ttype, true, why);
    case SIM_RMA_CAS:
        if ((rc = check_single("MPI_Compare_and_swap", x->ttype, why)) != MPI_SUCCESS)
            return rc;
        if (!sim_op_defined_for(MPI_BAND, x->ttype, NULL) &&
            !sim_op_defined_for(MPI_LAND, x->ttype, NULL))
            return fail(why, MPI_ERR_TYPE,
                        g_strdup_printf("MPI_Compare_and_swap takes an integer, logical or byte "
                                        "type (MPI 3.1 section 11.3.4), not %s",
                                        sim_dt_name(x->ttype)));
        return MPI_SUCCESS;
    }
    return fail(why, MPI_ERR_OTHER, g_strdup("unknown RMA operation"));
}

/* ---------------------------------------------------------------------- */
/* Data movement                                                           */

/* count elements of type at buf, packed into a new buffer of *bytes. */
static char *pack(const void *buf, int count, MPI_Datatype type, size_t *bytes) {
    *bytes = bytes_of(type, count);
    char *p = g_malloc(*bytes ? *bytes : 1);
    if (*bytes)
        sim_dt_pack(sim_dt_get(type), buf, count, p);
    return p;
}

static void unpack(const char *data, size_t bytes, void *buf, int count, MPI_Datatype type) {
    if (bytes)
        sim_dt_unpack(sim_dt_get(type), data, bytes, buf, count);
}

/* io[0..n) = in op io, on n packed bytes of target-type data. */
static int combine(MPI_Op op, const char *in, char *io, size_t n, MPI_Datatype ttype, char **why) {
    if (!n || op == MPI_NO_OP)
        return MPI_SUCCESS;
    size_t tsize = sim_dt_size(sim_dt_get(ttype));
    if (tsize && n % tsize == 0)
        return sim_op_apply_packed(op, in, io, (int)(n / tsize), ttype, why);
    MPI_Datatype elem = sim_rma_element_type(ttype);
    size_t esize = sim_dt_size(sim_dt_get(elem));
    return sim_op_apply_packed(op, in, io, (int)(n / esize), elem, why);
}

int sim_rma_apply(const sim_rma_xfer *x, char **why) {
    size_t ob, tb;
    char *o = NULL, *t = NULL;
    int rc = MPI_SUCCESS;
    switch (x->kind) {
    case SIM_RMA_PUT:
        o = pack(x->origin, x->ocount, x->otype, &ob);
        unpack(o, ob, x->target, x->tcount, x->ttype);
        break;
    case SIM_RMA_GET:
        t = pack(x->target, x->tcount, x->ttype, &tb);
        unpack(t, tb, x->origin, x->ocount, x->otype);
        break;
    case SIM_RMA_ACC:
    case SIM_RMA_GET_ACC:
        /* Both sides are packed first: the result buffer may overlap the
         * target (a rank accumulating into its own window). */
        t = pack(x->target, x->tcount, x->ttype, &tb);
        if (x->kind == SIM_RMA_GET_ACC)
            unpack(t, tb, x->result, x->rcount, x->rtype);
        if (x->op != MPI_NO_OP) {
            o = pack(x->origin, x->ocount, x->otype, &ob);
            rc = combine(x->op, o, t, ob, x->ttype, why);
            if (rc == MPI_SUCCESS)
                unpack(t, tb, x->target, x->tcount, x->ttype);
        }
        break;
    case SIM_RMA_FOP:
        t = pack(x->target, 1, x->ttype, &tb);
        unpack(t, tb, x->result, 1, x->ttype);
        if (x->op != MPI_NO_OP) {
            o = pack(x->origin, 1, x->ttype, &ob);
            rc = combine(x->op, o, t, ob, x->ttype, why);
            if (rc == MPI_SUCCESS)
                unpack(t, tb, x->target, 1, x->ttype);
        }
        break;
    case SIM_RMA_CAS: {
        t = pack(x->target, 1, x->ttype, &tb);
        size_t cb;
        char *c = pack(x->compare, 1, x->ttype, &cb);
        o = pack(x->origin, 1, x->ttype, &ob);
        unpack(t, tb, x->result, 1, x->ttype);
        if (memcmp(t, c, tb) == 0)
            unpack(o, ob, x->target, 1, x->ttype);
        g_free(c);
        break;
    }
    }
    g_free(o);
    g_free(t);
    return rc;
}
