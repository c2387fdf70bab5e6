/*
 * mpi_op.c - the MPI API of reduction operations: MPI_Op_create,
 * MPI_Op_free, MPI_Op_commutative and MPI_Reduce_local (MPI 3.1 section
 * 5.9.5-5.9.7).
 */
#include "scheduler/sched.h"
#include "simulator/datatype.h"
#include "simulator/held.h"
#include "simulator/op.h"
#include "simulator/sim_internal.h"

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op) {
    SIM_ENTER("MPI_Op_create");
    sim_call_args("user_fn=%p commute=%d", (void *)user_fn, commute);
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!user_fn)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Op_create: user_fn is NULL"));
    if (!op)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Op_create: op is NULL"));
    *op = sim_op_create(user_fn, commute != 0);
    sim_held_add_here(SIM_HELD_OP, (uint32_t)*op);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Op_create);

int PMPI_Op_free(MPI_Op *op) {
    SIM_ENTER("MPI_Op_free");
    sim_call_args("op=%s", op ? sim_op_name(*op) : "NULL");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!op)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Op_free: op is NULL"));
    if (!sim_op_valid(*op))
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_OP, "MPI_Op_free: op is %s", sim_op_name(*op)));
    if (!sim_op_free(*op))
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_OP,
                             "MPI_Op_free: %s is predefined and cannot be freed",
                             sim_op_name(*op)));
    sim_held_drop_here(SIM_HELD_OP, (uint32_t)*op);
    *op = MPI_OP_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Op_free);

int PMPI_Op_commutative(MPI_Op op, int *commute) {
    SIM_ENTER("MPI_Op_commutative");
    sim_call_args("op=%s", sim_op_name(op));
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    if (!sim_op_valid(op))
        SIM_RETURN(
            sim_error(MPI_COMM_NULL, MPI_ERR_OP, "MPI_Op_commutative: op is %s", sim_op_name(op)));
    if (!commute)
        SIM_RETURN(sim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Op_commutative: commute is NULL"));
    *commute = sim_op_commutative(op);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Op_commutative);

/* Checks MPI_Reduce_local's arguments; returns the error code or 0. */
static int reduce_local_check(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                              MPI_Op op) {
    const char *fn = "MPI_Reduce_local";
    if (count < 0)
        return sim_error(MPI_COMM_NULL, MPI_ERR_COUNT, "%s: count %d is negative", fn, count);
    char *why = NULL;
    const sim_datatype *dt = sim_dt_lookup(datatype, sim_self(), "datatype", &why);
    if (!dt) {
        int rc = sim_error(MPI_COMM_NULL, MPI_ERR_TYPE, "%s: %s", fn, why);
        g_free(why);
        return rc;
    }
    if (!sim_dt_committed(dt))
        return sim_error(MPI_COMM_NULL, MPI_ERR_TYPE,
                         "%s: datatype %s is not committed; call MPI_Type_commit first", fn,
                         sim_dt_name(datatype));
    if (!sim_op_valid(op))
        return sim_error(MPI_COMM_NULL, MPI_ERR_OP, "%s: op is %s", fn, sim_op_name(op));
    if (sim_op_rma_only(op))
        return sim_error(MPI_COMM_NULL, MPI_ERR_OP,
                         "%s: %s may only be used in RMA accumulate operations", fn,
                         sim_op_name(op));
    if (!sim_op_defined_for(op, datatype, &why)) {
        int rc = sim_error(MPI_COMM_NULL, MPI_ERR_OP, "%s: %s", fn, why);
        g_free(why);
        return rc;
    }
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return sim_error(MPI_COMM_NULL, MPI_ERR_BUFFER, "%s: MPI_IN_PLACE is not allowed here", fn);
    if (count > 0 && inbuf && inbuf == inoutbuf)
        return sim_error(MPI_COMM_NULL, MPI_ERR_BUFFER,
                         "%s: inbuf and inoutbuf are the same buffer %p; MPI requires them to "
                         "be distinct",
                         fn, inbuf);
    return MPI_SUCCESS;
}

int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op) {
    SIM_ENTER("MPI_Reduce_local");
    sim_call_args("count=%d datatype=%s op=%s", count, sim_dt_name(datatype), sim_op_name(op));
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    rc = reduce_local_check(inbuf, inoutbuf, count, datatype, op);
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    /* A user function is rank code: what it allocates belongs in the rank's
     * heap, and MPI calls it makes must see a rank outside the simulator.
     * sim_op_apply allocates nothing itself for user ops. */
    bool user = SIM_HANDLE_KIND(op) == SIM_HKIND_DIRECT;
    if (user)
        sched_leave_sim();
    char *why = NULL;
    rc = sim_op_apply(op, inbuf, inoutbuf, count, datatype, &why);
    if (user)
        sched_enter_sim();
    if (rc != MPI_SUCCESS) {
        rc = sim_error(MPI_COMM_NULL, rc, "MPI_Reduce_local: %s", why ? why : "reduction failed");
        g_free(why);
    }
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Reduce_local);
