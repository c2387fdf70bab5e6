/*
 * mpi_env.c - MPI environment management (MPI 3.1 chapter 8): start and end,
 * time, versions, abort.  Error handlers, classes and strings are
 * mpi_errhandler.c's.
 */
#include <stdarg.h>
#include <string.h>

#include "scheduler/sched.h"
#include "simulator/attr.h"
#include "simulator/engine.h"
#include "simulator/report.h"
#include "simulator/stub.h"
#include "simulator/timed.h"

/* Objects that MPICH's mpi.h declares and programs may reference.  The
 * loader resolves a program's references to data against these: a
 * missing one would refuse the program at load, as no stub can stand for
 * data. */
MPI_Fint *MPI_F_STATUS_IGNORE = NULL;
MPI_Fint *MPI_F_STATUSES_IGNORE = NULL;
MPI_F08_status MPIR_F08_MPI_STATUS_IGNORE_OBJ;
MPI_F08_status MPIR_F08_MPI_STATUSES_IGNORE_OBJ[1];
int MPIR_F08_MPI_IN_PLACE;
int MPIR_F08_MPI_BOTTOM;
MPI_F08_status *MPI_F08_STATUS_IGNORE = &MPIR_F08_MPI_STATUS_IGNORE_OBJ;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = MPIR_F08_MPI_STATUSES_IGNORE_OBJ;
/* MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY (distributed graph topologies) only
 * need to be distinct addresses that no program array has, and not
 * MPI_BOTTOM (NULL). */
static int g_unweighted, g_weights_empty;
int *const MPI_UNWEIGHTED = &g_unweighted;
int *const MPI_WEIGHTS_EMPTY = &g_weights_empty;
/* The tools interface's "every handle" marker (mpi_tool.c compares against it). */
static char g_pvar_all_handles;
struct MPIR_T_pvar_handle_s *const MPI_T_PVAR_ALL_HANDLES =
    (struct MPIR_T_pvar_handle_s *)&g_pvar_all_handles;

int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag);
int MPIR_Dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int init_common(const char *name) {
    sim_proc *p = sim_proc_of(sim_self());
    if (p->initialized)
        return sim_error(MPI_COMM_WORLD, MPI_ERR_OTHER,
                         "%s called twice (MPI may be initialised "
                         "only once)",
                         name);
    p->initialized = true;
    p->thread_level = MPI_THREAD_SINGLE;
    p->main_thread = pthread_self();
    p->init_site = p->call_site;
    return MPI_SUCCESS;
}

int PMPI_Init(int *argc, char ***argv) {
    SIM_ENTER("MPI_Init");
    SIM_RETURN(init_common("MPI_Init"));
}
SIM_ALIAS(MPI_Init);

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    SIM_ENTER("MPI_Init_thread");
    int rc = init_common("MPI_Init_thread");
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    /* Ranks are contexts of one thread: the program may use threads only as
     * FUNNELED allows (MPI calls from the main thread). */
    int level = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    if (level < MPI_THREAD_SINGLE)
        level = MPI_THREAD_SINGLE;
    sim_proc *me = sim_proc_of(sim_self());
    me->thread_level = level;
    me->thread_required = required;
    me->init_site = me->call_site;
    if (provided)
        *provided = level;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Init_thread);

int PMPI_Query_thread(int *provided) {
    SIM_ENTER("MPI_Query_thread");
    int rc = sim_check_initialized();
    if (rc == MPI_SUCCESS)
        *provided = sim_proc_of(sim_self())->thread_level;
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Query_thread);

int PMPI_Is_thread_main(int *flag) {
    SIM_ENTER("MPI_Is_thread_main");
    sim_proc *me = sim_proc_of(sim_self());
    *flag = !me->initialized || pthread_equal(pthread_self(), me->main_thread);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Is_thread_main);

int PMPI_Finalize(void) {
    SIM_ENTER("MPI_Finalize");
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        SIM_RETURN(rc);
    /* MPI_COMM_SELF's attributes are deleted first, as if it were freed
     * (MPI 3.1 section 8.7.1: the hook programs use to run code at the
     * end), then MPI_COMM_WORLD's, as MPICH does. */
    char *why = NULL;
    if ((rc = sim_attr_delete_all(sim_self(), SIM_ATTR_COMM, MPI_COMM_SELF, &why)) != MPI_SUCCESS ||
        (rc = sim_attr_delete_all(sim_self(), SIM_ATTR_COMM, MPI_COMM_WORLD, &why)) !=
            MPI_SUCCESS) {
        char msg[512];
        g_strlcpy(msg, why, sizeof msg);
        g_free(why);
        SIM_RETURN(sim_error(MPI_COMM_SELF, rc, "MPI_Finalize: %s", msg));
    }
    sim_proc *p = sim_proc_of(sim_self());
    p->finalized = true;
    sim_observe_snapshot(p);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Finalize);

int PMPI_Initialized(int *flag) {
    SIM_ENTER("MPI_Initialized");
    *flag = sim_proc_of(sim_self())->initialized;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Initialized);

int PMPI_Finalized(int *flag) {
    SIM_ENTER("MPI_Finalized");
    *flag = sim_proc_of(sim_self())->finalized;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Finalized);

double PMPI_Wtime(void) {
    sim_call_enter("MPI_Wtime", __builtin_return_address(0), __builtin_frame_address(0));
    int self = sim_self();
    sim_clock_charge_compute(self);
    double t = sim_timed_active() ? sim_timed_now() : sim_proc_of(self)->clock;
    sim_call_leave();
    return t;
}
SIM_ALIAS(MPI_Wtime);

double PMPI_Wtick(void) {
    return 1e-9;
}
SIM_ALIAS(MPI_Wtick);

int PMPI_Get_processor_name(char *name, int *resultlen) {
    SIM_ENTER("MPI_Get_processor_name");
    /* Every rank runs on the simulated node of its rank. */
    int n = snprintf(name, MPI_MAX_PROCESSOR_NAME, "ordex-node%d", sim_node_of(sim_self()));
    *resultlen = n;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_Get_processor_name);

int PMPI_Get_version(int *version, int *subversion) {
    *version = 3;
    *subversion = 1;
    return MPI_SUCCESS;
}
SIM_ALIAS(MPI_Get_version);

int PMPI_Get_library_version(char *version, int *resultlen) {
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "ordex simulated MPI (MPI 3.1, MPICH-compatible handles)");
    *resultlen = n;
    return MPI_SUCCESS;
}
SIM_ALIAS(MPI_Get_library_version);

int PMPI_Pcontrol(const int level, ...) {
    return MPI_SUCCESS;
}
SIM_ALIAS(MPI_Pcontrol);

int PMPI_Abort(MPI_Comm comm, int errorcode) {
    SIM_ENTER("MPI_Abort");
    int self = sim_self();
    int ranks[1] = {self};
    sim_add_finding(SIM_F_ABORT, ranks, 1, sim_location(sim_proc_of(self)->call_site),
                    g_strdup_printf("rank %d called MPI_Abort with error code %d", self, errorcode),
                    sim_report_backtrace_here());
    sched_abort_current();
}
SIM_ALIAS(MPI_Abort);

void sim_unsupported_call(const char *fname, void *caller, void *frame) {
    sim_call_enter(fname, caller, frame);
    int self = sim_self();
    int ranks[1] = {self};
    sim_add_finding(
        SIM_F_UNSUPPORTED, ranks, 1, sim_location(sim_proc_of(self)->call_site),
        g_strdup_printf("rank %d called %s, which ordex does not implement", self, fname),
        sim_report_backtrace_here());
    sched_abort_current();
}

void sim_unsupported(const char *fmt, ...) {
    int self = sim_self();
    int ranks[1] = {self};
    va_list ap;
    va_start(ap, fmt);
    char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    sim_add_finding(SIM_F_UNSUPPORTED, ranks, 1, sim_location(sim_proc_of(self)->call_site),
                    g_strdup_printf("rank %d: %s, which ordex does not implement", self, what),
                    sim_report_backtrace_here());
    g_free(what);
    sched_abort_current();
}
