/*
 * mpi_file.c - the MPI API of MPI-IO (MPI 3.1 chapter 13) on the host file
 * system: opening and closing files, their size, hints, views, file
 * pointers, data access at explicit offsets, through individual and shared
 * file pointers, blocking, nonblocking, collective and split collective,
 * consistency (MPI_File_sync, atomic mode) and the error handlers of
 * files.  The table, the collectives and the transfers are file.c's.
 *
 * Nonblocking accesses (MPI_File_iread ...) move their data at the call,
 * which MPI allows, and their request is complete at once (their buffer is
 * still recorded as MPI's until the wait, for the race checks); split
 * collectives (..._begin/_end) run the whole collective at the begin call
 * (MPI 3.1 13.4.5 lets an implementation do that), the end returning its
 * status.  Errors go to the file's error handler (MPI_ERRORS_RETURN unless
 * the program set another), those of MPI_File_open, MPI_File_delete and
 * invalid handles to MPI_FILE_NULL's (MPI 3.1 13.7).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scheduler/sched.h"
#include "simulator/access.h"
#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/datatype.h"
#include "simulator/engine.h"
#include "simulator/errhandler.h"
#include "simulator/events.h"
#include "simulator/file.h"
#include "simulator/held.h"
#include "simulator/request.h"
#include "simulator/sim_internal.h"
#include "simulator/timed.h"

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int sim_try_rc_ = (expr);                                                                  \
        if (sim_try_rc_ != MPI_SUCCESS)                                                            \
            SIM_RETURN(sim_try_rc_);                                                               \
    } while (0)

/* The calling member's side of a call on a file. */
typedef struct fcall {
    const char *fn;
    sim_file *f;
    int me;
    sim_file_member *m;
    size_t moved;            /* a data access: the file bytes it moved */
    struct sim_request *req; /* a nonblocking one: its request */
} fcall;

#define FERR(k, cls, ...) sim_file_error((k)->f, (k)->me, (cls), __VA_ARGS__)

static int begin(fcall *k, const char *fn, MPI_File fh) {
    k->fn = fn;
    k->f = NULL;
    k->me = 0;
    int rc = sim_check_initialized();
    if (rc != MPI_SUCCESS)
        return rc;
    char *why = NULL;
    rc = sim_file_lookup(fh, &k->f, &k->me, &why);
    if (rc != MPI_SUCCESS) {
        k->f = NULL;
        rc = sim_file_error(NULL, 0, rc, "%s: %s", fn, why);
        g_free(why);
        return rc;
    }
    k->m = &k->f->m[k->me];
    return MPI_SUCCESS;
}

/* Posts the member's part of a file collective and, unless nonblocking,
 * waits for it and reports its result. */
static int post(fcall *k, sim_coll_kind kind, sim_file_coll_args *a, MPI_Request *request,
                size_t bytes) {
    a->f = k->f;
    a->call = k->fn;
    a->site = sim_proc_of(sim_self())->call_site;
    sim_coll_args ca = {0};
    ca.file = request ? NULL : a;
    ca.nonblocking = request != NULL;
    sim_request *req = sim_coll_post(k->f->comm, kind, &ca);
    if (!req)
        return MPI_ERR_OTHER; /* a mismatch, reported already */
    if (request) {
        req->io_status = true;
        sim_status_set_bytes(&req->status, bytes);
        *request = sim_request_publish(req);
        k->req = req;
        return MPI_SUCCESS;
    }
    int rc = sim_request_wait(req, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;
    if (a->rc != MPI_SUCCESS) {
        rc = FERR(k, a->rc, "%s", a->why ? a->why : "failed");
        g_free(a->why);
        a->why = NULL;
        return rc;
    }
    return MPI_SUCCESS;
}

static const char *fname(const sim_file *f) {
    return f->path;
}

/* ---------------------------------------------------------------------- */
/* Opening, closing, deleting                                              */

/* MPI 3.1 13.2.1: exactly one of RDONLY, RDWR and WRONLY; RDONLY with
 * CREATE or EXCL, and RDWR with SEQUENTIAL, are erroneous. */
static char *amode_problem(int amode) {
    int known = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY | MPI_MODE_CREATE |
                MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN |
                MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND;
    if (amode & ~known)
        return g_strdup_printf("amode %d has bits that are no MPI_MODE_* constant", amode);
    int access =
        !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_RDWR) + !!(amode & MPI_MODE_WRONLY);
    if (access != 1)
        return g_strdup_printf("amode %d must hold exactly one of MPI_MODE_RDONLY, "
                               "MPI_MODE_RDWR and MPI_MODE_WRONLY (it holds %d)",
                               amode, access);
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return g_strdup("MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL is erroneous "
                        "(MPI 3.1 13.2.1)");
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        return g_strdup("MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL is erroneous (MPI 3.1 13.2.1)");
    return NULL;
}

/* The program's info as key/value pairs (NULL for MPI_INFO_NULL). */
static int info_pairs(MPI_Info info, GPtrArray **out) {
    *out = NULL;
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    int n = 0;
    int rc = PMPI_Info_get_nkeys(info, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    GPtrArray *p = g_ptr_array_new_with_free_func(g_free);
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1];
        char value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        if (PMPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS ||
            PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag) != MPI_SUCCESS || !flag)
            continue;
        g_ptr_array_add(p, g_strdup(key));
        g_ptr_array_add(p, g_strdup(value));
    }
    *out = p;
    return MPI_SUCCESS;
}

int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh) {
    SIM_ENTER("MPI_File_open");
    TRY(sim_check_initialized());
    sim_comm *c;
    TRY(sim_comm_check(comm, &c));
    sim_call_args("%s, filename=\"%s\", amode=%d", sim_comm_describe(c),
                  filename ? filename : "(null)", amode);
    if (c->remote)
        SIM_RETURN(sim_file_error(NULL, 0, MPI_ERR_COMM,
                                  "MPI_File_open: %s is an intercommunicator; files are opened "
                                  "on intracommunicators (MPI 3.1 13.2.1)",
                                  sim_comm_describe(c)));
    if (!filename)
        SIM_RETURN(sim_file_error(NULL, 0, MPI_ERR_ARG, "MPI_File_open: filename is NULL"));
    if (!fh)
        SIM_RETURN(sim_file_error(NULL, 0, MPI_ERR_ARG, "MPI_File_open: fh is NULL"));
    char *why = amode_problem(amode);
    if (why) {
        int rc = sim_file_error(NULL, 0, MPI_ERR_AMODE, "MPI_File_open: %s", why);
        g_free(why);
        SIM_RETURN(rc);
    }
    GPtrArray *hints;
    TRY(info_pairs(info, &hints));
    /* Files take part in the race checks from their first open. */
    sim_access_enable();
    *fh = MPI_FILE_NULL;
    sim_file_coll_args a = {0};
    a.path = filename;
    a.amode = amode;
    a.out = fh;
    a.call = "MPI_File_open";
    sim_coll_args ca = {0};
    ca.file = &a;
    sim_request *req = sim_coll_post(c, SIM_COLL_FILE_OPEN, &ca);
    if (!req) {
        if (hints)
            g_ptr_array_free(hints, TRUE);
        SIM_RETURN(MPI_ERR_OTHER);
    }
    int rc = sim_request_wait(req, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && a.rc != MPI_SUCCESS) {
        *fh = MPI_FILE_NULL;
        rc = sim_file_error(NULL, 0, a.rc, "%s", a.why);
    }
    g_free(a.why);
    if (rc != MPI_SUCCESS) {
        if (hints)
            g_ptr_array_free(hints, TRUE);
        SIM_RETURN(rc);
    }
    fcall k;
    TRY(begin(&k, "MPI_File_open", *fh));
    k.m->hints = hints;
    sim_file_synced(k.f, k.me, NULL, NULL);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_open);

int PMPI_File_close(MPI_File *fh) {
    SIM_ENTER("MPI_File_close");
    fcall k;
    if (!fh)
        SIM_RETURN(sim_file_error(NULL, 0, MPI_ERR_ARG, "MPI_File_close: fh is NULL"));
    TRY(begin(&k, "MPI_File_close", *fh));
    sim_call_args("fh='%s'", fname(k.f));
    if (k.m->split)
        SIM_RETURN(FERR(&k, MPI_ERR_OTHER,
                        "MPI_File_close: %s is still active on '%s'; its _end call must come "
                        "first (MPI 3.1 13.4.5)",
                        k.m->split, fname(k.f)));
    /* Closing synchronises the member's accesses as MPI_File_sync does. */
    sim_file_synced(k.f, k.me, "MPI_File_close", sim_proc_of(sim_self())->call_site);
    sim_file_coll_args a = {0};
    TRY(post(&k, SIM_COLL_FILE_CLOSE, &a, NULL, 0));
    *fh = MPI_FILE_NULL;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_close);

int PMPI_File_delete(const char *filename, MPI_Info info) {
    SIM_ENTER("MPI_File_delete");
    (void)info;
    TRY(sim_check_initialized());
    if (!filename)
        SIM_RETURN(sim_file_error(NULL, 0, MPI_ERR_ARG, "MPI_File_delete: filename is NULL"));
    sim_call_args("filename=\"%s\"", filename);
    if (unlink(filename) != 0) {
        int e = errno;
        int cls = e == ENOENT                   ? MPI_ERR_NO_SUCH_FILE
                  : e == EACCES || e == EPERM   ? MPI_ERR_ACCESS
                  : e == EBUSY || e == ETXTBSY  ? MPI_ERR_FILE_IN_USE
                  : e == EISDIR || e == ENOTDIR ? MPI_ERR_BAD_FILE
                                                : MPI_ERR_IO;
        SIM_RETURN(sim_file_error(NULL, 0, cls, "MPI_File_delete: cannot delete '%s': %s", filename,
                                  g_strerror(e)));
    }
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_delete);

/* ---------------------------------------------------------------------- */
/* Size, mode, group, hints                                                */

/* Returns from the MPI function when a begin() or check fails. */
#define BEGIN(k, fn, fh)                                                                           \
    do {                                                                                           \
        SIM_ENTER(fn);                                                                             \
        TRY(begin((k), (fn), (fh)));                                                               \
    } while (0)

static int size_coll(fcall *k, sim_coll_kind kind, MPI_Offset size) {
    sim_call_args("fh='%s', size=%lld", fname(k->f), (long long)size);
    if (size < 0)
        return FERR(k, MPI_ERR_ARG, "%s: size %lld is negative", k->fn, (long long)size);
    if (k->f->amode & MPI_MODE_SEQUENTIAL)
        return FERR(k, MPI_ERR_UNSUPPORTED_OPERATION,
                    "%s: '%s' was opened with MPI_MODE_SEQUENTIAL (MPI 3.1 13.2.1)", k->fn,
                    fname(k->f));
    if (k->f->amode & MPI_MODE_RDONLY)
        return FERR(k, MPI_ERR_READ_ONLY, "%s: '%s' was opened MPI_MODE_RDONLY", k->fn,
                    fname(k->f));
    sim_file_coll_args a = {0};
    a.value = size;
    return post(k, kind, &a, NULL, 0);
}

int PMPI_File_set_size(MPI_File fh, MPI_Offset size) {
    fcall k;
    BEGIN(&k, "MPI_File_set_size", fh);
    SIM_RETURN(size_coll(&k, SIM_COLL_FILE_SET_SIZE, size));
}
SIM_ALIAS(MPI_File_set_size);

int PMPI_File_preallocate(MPI_File fh, MPI_Offset size) {
    fcall k;
    BEGIN(&k, "MPI_File_preallocate", fh);
    SIM_RETURN(size_coll(&k, SIM_COLL_FILE_PREALLOCATE, size));
}
SIM_ALIAS(MPI_File_preallocate);

static int host_size(fcall *k, MPI_Offset *size) {
    struct stat st;
    if (fstat(k->f->fd, &st) != 0)
        return FERR(k, MPI_ERR_IO, "%s: '%s': %s", k->fn, fname(k->f), g_strerror(errno));
    *size = (MPI_Offset)st.st_size;
    return MPI_SUCCESS;
}

int PMPI_File_get_size(MPI_File fh, MPI_Offset *size) {
    fcall k;
    BEGIN(&k, "MPI_File_get_size", fh);
    if (!size)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_size: size is NULL"));
    SIM_RETURN(host_size(&k, size));
}
SIM_ALIAS(MPI_File_get_size);

int PMPI_File_get_amode(MPI_File fh, int *amode) {
    fcall k;
    BEGIN(&k, "MPI_File_get_amode", fh);
    if (!amode)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_amode: amode is NULL"));
    *amode = k.f->amode;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_amode);

int PMPI_File_get_group(MPI_File fh, MPI_Group *group) {
    fcall k;
    BEGIN(&k, "MPI_File_get_group", fh);
    if (!group)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_group: group is NULL"));
    int *members = g_new(int, k.f->size);
    for (int i = 0; i < k.f->size; i++)
        members[i] = k.f->m[i].world;
    *group = sim_group_new_for(sim_self(), k.f->size, members);
    if (*group != MPI_GROUP_EMPTY) /* the program's to free */
        sim_held_add_here(SIM_HELD_GROUP, (uint32_t)*group);
    g_free(members);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_group);

/* Adds the pairs of `more` to the member's hints (a key again replaces). */
static void merge_hints(sim_file_member *m, GPtrArray *more) {
    if (!more)
        return;
    if (!m->hints)
        m->hints = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i + 1 < more->len; i += 2) {
        const char *key = g_ptr_array_index(more, i);
        guint j = 0;
        while (j < m->hints->len && strcmp(g_ptr_array_index(m->hints, j), key) != 0)
            j += 2;
        if (j < m->hints->len) {
            g_free(m->hints->pdata[j + 1]);
            m->hints->pdata[j + 1] = g_strdup(g_ptr_array_index(more, i + 1));
        } else {
            g_ptr_array_add(m->hints, g_strdup(key));
            g_ptr_array_add(m->hints, g_strdup(g_ptr_array_index(more, i + 1)));
        }
    }
    g_ptr_array_free(more, TRUE);
}

int PMPI_File_set_info(MPI_File fh, MPI_Info info) {
    fcall k;
    BEGIN(&k, "MPI_File_set_info", fh);
    sim_call_args("fh='%s'", fname(k.f));
    GPtrArray *more;
    TRY(info_pairs(info, &more));
    merge_hints(k.m, more);
    sim_file_coll_args a = {0};
    SIM_RETURN(post(&k, SIM_COLL_FILE_SET_INFO, &a, NULL, 0));
}
SIM_ALIAS(MPI_File_set_info);

int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used) {
    fcall k;
    BEGIN(&k, "MPI_File_get_info", fh);
    if (!info_used)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_info: info_used is NULL"));
    TRY(PMPI_Info_create(info_used));
    for (guint i = 0; k.m->hints && i + 1 < k.m->hints->len; i += 2)
        TRY(PMPI_Info_set(*info_used, g_ptr_array_index(k.m->hints, i),
                          g_ptr_array_index(k.m->hints, i + 1)));
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_info);

/* ---------------------------------------------------------------------- */
/* Views                                                                   */

/* The view v (built from the types' memory layout) in the file
 * representation rep: the same when every basic element keeps its size;
 * else, for a filetype without holes, the etypes and filetypes back to
 * back at their file sizes (MPI 3.1 13.5.1 scales the displacements of
 * portable types); a filetype with holes whose elements change size is
 * refused. */
static int rep_view(sim_fview *v, const sim_datarep *rep, const sim_datatype *edt,
                    const sim_datatype *fdt, char **why) {
    size_t esize = 0, tsize = 0;
    int rc = sim_file_rep_size(rep, edt, 1, &esize, why);
    if (rc == MPI_SUCCESS)
        rc = sim_file_rep_size(rep, fdt, 1, &tsize, why);
    if (rc != MPI_SUCCESS)
        return rc;
    if (esize == sim_dt_size(edt) && tsize == sim_dt_size(fdt))
        return MPI_SUCCESS;
    bool dense = v->nblocks == 1 && v->blocks[0].off == 0 && (MPI_Aint)v->tsize == v->extent;
    if (!dense) {
        *why = g_strdup_printf(
            "the filetype %s has holes and its elements change size in data representation "
            "\"%s\" (%zu bytes in memory, %zu in the file); ordex implements such views only "
            "for filetypes without holes",
            sim_dt_name(sim_dt_handle(fdt)), rep->name, sim_dt_size(fdt), tsize);
        return MPI_ERR_UNSUPPORTED_DATAREP;
    }
    if (esize == 0 || tsize % esize != 0) {
        *why = g_strdup_printf("in data representation \"%s\" the filetype %s takes %zu bytes, "
                               "not a whole number of etypes of %zu bytes (MPI 3.1 13.3)",
                               rep->name, sim_dt_name(sim_dt_handle(fdt)), tsize, esize);
        return MPI_ERR_TYPE;
    }
    v->esize = esize;
    v->tsize = tsize;
    v->extent = (MPI_Aint)tsize;
    v->blocks[0].len = tsize;
    return MPI_SUCCESS;
}

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info) {
    fcall k;
    BEGIN(&k, "MPI_File_set_view", fh);
    sim_call_args("fh='%s', disp=%lld, etype=%s, filetype=%s, datarep=\"%s\"", fname(k.f),
                  (long long)disp, sim_dt_name(etype), sim_dt_name(filetype),
                  datarep ? datarep : "(null)");
    if (!datarep)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_set_view: datarep is NULL"));
    const sim_datarep *rep = sim_file_datarep(sim_self(), datarep);
    if (!rep)
        SIM_RETURN(FERR(&k, MPI_ERR_UNSUPPORTED_DATAREP, "MPI_File_set_view: datarep \"%s\" %s",
                        datarep,
                        strcmp(datarep, "internal") == 0
                            ? "is a representation of MPI 3.1 13.5 that ordex does not implement "
                              "(\"native\" and \"external32\" are)"
                            : "is not a data representation MPI or the program defines (MPI 3.1 "
                              "13.5; MPI_Register_datarep defines one for the calling process)"));
    if (k.m->split)
        SIM_RETURN(FERR(&k, MPI_ERR_OTHER,
                        "MPI_File_set_view: %s is still active on '%s' (MPI 3.1 13.4.5)",
                        k.m->split, fname(k.f)));
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(k.f->amode & MPI_MODE_SEQUENTIAL))
            SIM_RETURN(FERR(&k, MPI_ERR_ARG,
                            "MPI_File_set_view: MPI_DISPLACEMENT_CURRENT is only for files "
                            "opened with MPI_MODE_SEQUENTIAL (MPI 3.1 13.3)"));
        disp = sim_fview_byte(&k.m->view, k.f->shared_fp * (MPI_Offset)k.m->view.esize);
    }
    const char *bad = NULL;
    const sim_datatype *edt = sim_dt_get(etype), *fdt = sim_dt_get(filetype);
    if (!edt || !sim_dt_committed(edt))
        bad = "etype";
    else if (!fdt || !sim_dt_committed(fdt))
        bad = "filetype";
    if (bad)
        SIM_RETURN(FERR(&k, MPI_ERR_TYPE,
                        "MPI_File_set_view: the %s %s is not a committed datatype", bad,
                        sim_dt_name(!strcmp(bad, "etype") ? etype : filetype)));
    sim_fview v = {0};
    char *why = NULL;
    int rc = sim_fview_make(&v, disp, edt, fdt, &why);
    if (rc == MPI_SUCCESS && rep->kind != SIM_REP_NATIVE)
        rc = rep_view(&v, rep, edt, fdt, &why);
    if (rc != MPI_SUCCESS) {
        sim_fview_clear(&v);
        rc = FERR(&k, rc, "MPI_File_set_view: %s", why);
        g_free(why);
        SIM_RETURN(rc);
    }
    GPtrArray *more;
    TRY(info_pairs(info, &more));
    merge_hints(k.m, more);
    sim_fview_clear(&k.m->view);
    k.m->view = v;
    if (k.m->etype_dt)
        sim_dt_unref(k.m->etype_dt);
    if (k.m->ftype_dt)
        sim_dt_unref(k.m->ftype_dt);
    k.m->etype_dt = sim_dt_is_predefined(etype) ? NULL : sim_dt_ref(edt);
    k.m->ftype_dt = sim_dt_is_predefined(filetype) ? NULL : sim_dt_ref(fdt);
    k.m->etype = etype;
    k.m->ftype = filetype;
    g_strlcpy(k.m->datarep, datarep, sizeof k.m->datarep);
    k.m->rep = rep;
    k.m->fp = 0; /* MPI 3.1 13.3: both file pointers go back to zero */
    sim_file_coll_args a = {0};
    a.value = sim_dt_extent(edt);
    a.datarep = datarep;
    SIM_RETURN(post(&k, SIM_COLL_FILE_SET_VIEW, &a, NULL, 0));
}
SIM_ALIAS(MPI_File_set_view);

/* A local call: the name is the calling process's (MPI 3.1 13.5.3); its
 * errors go to MPI_FILE_NULL's handler. */
int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state) {
    SIM_ENTER("MPI_Register_datarep");
    TRY(sim_check_initialized());
    if (!datarep)
        SIM_RETURN(sim_file_error(NULL, 0, MPI_ERR_ARG, "MPI_Register_datarep: datarep is NULL"));
    sim_call_args("datarep=\"%s\"", datarep);
    char *why = NULL;
    int rc = sim_file_register_datarep(sim_self(), datarep, read_conversion_fn, write_conversion_fn,
                                       dtype_file_extent_fn, extra_state, &why);
    if (rc != MPI_SUCCESS) {
        rc = sim_file_error(NULL, 0, rc, "MPI_Register_datarep: %s", why);
        g_free(why);
    }
    SIM_RETURN(rc);
}
SIM_ALIAS(MPI_Register_datarep);

int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                       char *datarep) {
    fcall k;
    BEGIN(&k, "MPI_File_get_view", fh);
    if (!disp || !etype || !filetype || !datarep)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_view: an output argument is NULL"));
    *disp = k.m->view.disp;
    /* MPI 3.1 13.3: derived types come back as new handles the program
     * frees; predefined ones as themselves. */
    if (sim_dt_is_predefined(k.m->etype))
        *etype = k.m->etype;
    else
        TRY(PMPI_Type_dup(k.m->etype, etype));
    if (sim_dt_is_predefined(k.m->ftype))
        *filetype = k.m->ftype;
    else
        TRY(PMPI_Type_dup(k.m->ftype, filetype));
    strcpy(datarep, k.m->datarep);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_view);

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent) {
    fcall k;
    BEGIN(&k, "MPI_File_get_type_extent", fh);
    const sim_datatype *dt = sim_dt_get(datatype);
    if (!dt)
        SIM_RETURN(FERR(&k, MPI_ERR_TYPE, "MPI_File_get_type_extent: %s is no datatype",
                        sim_dt_name(datatype)));
    if (!extent)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_type_extent: extent is NULL"));
    /* In the view's representation: as in memory when every basic element
     * keeps its size there, else the elements back to back. */
    size_t bytes = 0;
    char *why = NULL;
    int rc = sim_file_rep_size(k.m->rep, dt, 1, &bytes, &why);
    if (rc != MPI_SUCCESS) {
        rc = FERR(&k, rc, "MPI_File_get_type_extent: %s", why);
        g_free(why);
        SIM_RETURN(rc);
    }
    *extent = bytes == sim_dt_size(dt) ? sim_dt_extent(dt) : (MPI_Aint)bytes;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_type_extent);

/* ---------------------------------------------------------------------- */
/* File pointers                                                           */

/* The etype offset of the view's end of file: the first stream position
 * whose byte lies at or after the file's end. */
static int view_end(fcall *k, MPI_Offset *end) {
    MPI_Offset size = 0;
    int rc = host_size(k, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    const sim_fview *v = &k->m->view;
    MPI_Offset lo = 0, hi = size + 1; /* each etype holds a byte at least */
    while (lo < hi) {
        MPI_Offset mid = lo + (hi - lo) / 2;
        if (sim_fview_byte(v, mid * (MPI_Offset)v->esize) >= size)
            hi = mid;
        else
            lo = mid + 1;
    }
    *end = lo;
    return MPI_SUCCESS;
}

static int seek_target(fcall *k, MPI_Offset offset, int whence, MPI_Offset cur, MPI_Offset *to) {
    MPI_Offset base;
    if (whence == MPI_SEEK_SET) {
        base = 0;
    } else if (whence == MPI_SEEK_CUR) {
        base = cur;
    } else if (whence == MPI_SEEK_END) {
        int rc = view_end(k, &base);
        if (rc != MPI_SUCCESS)
            return rc;
    } else {
        return FERR(k, MPI_ERR_ARG,
                    "%s: whence %d is none of MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END", k->fn,
                    whence);
    }
    if (base + offset < 0)
        return FERR(k, MPI_ERR_ARG,
                    "%s: the file pointer would be %lld, before the start of the view", k->fn,
                    (long long)(base + offset));
    *to = base + offset;
    return MPI_SUCCESS;
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
    fcall k;
    BEGIN(&k, "MPI_File_seek", fh);
    sim_call_args("fh='%s', offset=%lld, whence=%d", fname(k.f), (long long)offset, whence);
    if (k.f->amode & MPI_MODE_SEQUENTIAL)
        SIM_RETURN(FERR(&k, MPI_ERR_UNSUPPORTED_OPERATION,
                        "MPI_File_seek: '%s' was opened with MPI_MODE_SEQUENTIAL", fname(k.f)));
    MPI_Offset to = 0;
    TRY(seek_target(&k, offset, whence, k.m->fp, &to));
    k.m->fp = to;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_seek);

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset) {
    fcall k;
    BEGIN(&k, "MPI_File_get_position", fh);
    if (!offset)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_position: offset is NULL"));
    *offset = k.m->fp;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_position);

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
    fcall k;
    BEGIN(&k, "MPI_File_seek_shared", fh);
    sim_call_args("fh='%s', offset=%lld, whence=%d", fname(k.f), (long long)offset, whence);
    if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG,
                        "MPI_File_seek_shared: whence %d is none of MPI_SEEK_SET, "
                        "MPI_SEEK_CUR, MPI_SEEK_END",
                        whence));
    sim_file_coll_args a = {0};
    a.value = offset;
    a.whence = whence;
    if (whence == MPI_SEEK_END) {
        MPI_Offset end = 0;
        TRY(view_end(&k, &end));
        a.end = end;
    }
    SIM_RETURN(post(&k, SIM_COLL_FILE_SEEK_SHARED, &a, NULL, 0));
}
SIM_ALIAS(MPI_File_seek_shared);

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset) {
    fcall k;
    BEGIN(&k, "MPI_File_get_position_shared", fh);
    if (!offset)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_position_shared: offset is NULL"));
    *offset = k.f->shared_fp;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_position_shared);

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp) {
    fcall k;
    BEGIN(&k, "MPI_File_get_byte_offset", fh);
    if (offset < 0)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_byte_offset: offset %lld is negative",
                        (long long)offset));
    if (!disp)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_byte_offset: disp is NULL"));
    *disp = sim_fview_byte(&k.m->view, offset * (MPI_Offset)k.m->view.esize);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_byte_offset);

/* ---------------------------------------------------------------------- */
/* Consistency                                                             */

int PMPI_File_sync(MPI_File fh) {
    fcall k;
    BEGIN(&k, "MPI_File_sync", fh);
    sim_call_args("fh='%s'", fname(k.f));
    if (k.m->split)
        SIM_RETURN(FERR(&k, MPI_ERR_OTHER,
                        "MPI_File_sync: %s is still active on '%s' (MPI 3.1 13.4.5)", k.m->split,
                        fname(k.f)));
    /* Only this member's side: the collective is no barrier, so the
     * accesses of others are ordered before its next ones only by a
     * synchronisation after their sync and a sync here after it. */
    sim_file_synced(k.f, k.me, "MPI_File_sync", sim_proc_of(sim_self())->call_site);
    sim_file_coll_args a = {0};
    SIM_RETURN(post(&k, SIM_COLL_FILE_SYNC, &a, NULL, 0));
}
SIM_ALIAS(MPI_File_sync);

int PMPI_File_set_atomicity(MPI_File fh, int flag) {
    fcall k;
    BEGIN(&k, "MPI_File_set_atomicity", fh);
    sim_call_args("fh='%s', flag=%d", fname(k.f), flag);
    sim_file_coll_args a = {0};
    a.value = flag != 0;
    SIM_RETURN(post(&k, SIM_COLL_FILE_SET_ATOMICITY, &a, NULL, 0));
}
SIM_ALIAS(MPI_File_set_atomicity);

int PMPI_File_get_atomicity(MPI_File fh, int *flag) {
    fcall k;
    BEGIN(&k, "MPI_File_get_atomicity", fh);
    if (!flag)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_atomicity: flag is NULL"));
    *flag = k.f->atomic;
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_atomicity);

/* ---------------------------------------------------------------------- */
/* Error handlers of files                                                 */

int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) {
    SIM_ENTER("MPI_File_set_errhandler");
    TRY(sim_check_initialized());
    fcall k = {"MPI_File_set_errhandler", NULL, 0, NULL, 0, NULL};
    if (file != MPI_FILE_NULL)
        TRY(begin(&k, "MPI_File_set_errhandler", file));
    char *why = NULL;
    int rc = sim_errh_check(sim_self(), errhandler, SIM_ERRH_FILE, &why);
    if (rc != MPI_SUCCESS) {
        rc = FERR(&k, rc, "MPI_File_set_errhandler: %s", why ? why : "invalid handler");
        g_free(why);
        SIM_RETURN(rc);
    }
    if (k.f)
        k.m->errh = errhandler;
    else
        sim_errh_set_file_default(sim_self(), errhandler);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_set_errhandler);

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler) {
    SIM_ENTER("MPI_File_get_errhandler");
    TRY(sim_check_initialized());
    fcall k = {"MPI_File_get_errhandler", NULL, 0, NULL, 0, NULL};
    if (file != MPI_FILE_NULL)
        TRY(begin(&k, "MPI_File_get_errhandler", file));
    if (!errhandler)
        SIM_RETURN(FERR(&k, MPI_ERR_ARG, "MPI_File_get_errhandler: errhandler is NULL"));
    *errhandler = sim_file_errhandler(k.f, k.me);
    sim_errh_ref(sim_self(), *errhandler);
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_get_errhandler);

int PMPI_File_call_errhandler(MPI_File fh, int errorcode) {
    SIM_ENTER("MPI_File_call_errhandler");
    TRY(sim_check_initialized());
    fcall k = {"MPI_File_call_errhandler", NULL, 0, NULL, 0, NULL};
    if (fh != MPI_FILE_NULL)
        TRY(begin(&k, "MPI_File_call_errhandler", fh));
    char buf[MPI_MAX_ERROR_STRING];
    int len = 0;
    PMPI_Error_string(errorcode, buf, &len);
    FERR(&k, errorcode, "MPI_File_call_errhandler: the program raised error %d (%s) on %s",
         errorcode, buf, k.f ? fname(k.f) : "MPI_FILE_NULL");
    SIM_RETURN(MPI_SUCCESS);
}
SIM_ALIAS(MPI_File_call_errhandler);

/* ---------------------------------------------------------------------- */
/* Data access                                                             */

typedef enum where_kind { AT_EXPLICIT, AT_INDIVIDUAL, AT_SHARED } where_kind;

/* Independent accesses of several members through the shared file pointer
 * take it in an order MPI leaves open (MPI 3.1 13.4.4), and the file's
 * contents show which.  Exploring, each such access is a choice
 * (sim_choose): take the pointer now, or let other members go first: the
 * member then waits, as a poll, until another takes the pointer (and
 * chooses again) or nothing else can happen (and takes it).  Other changes
 * meanwhile (a message delivered) only make it wait on. */
static void shared_turn(fcall *k) {
    sim_file *f = k->f;
    if (!sim_g->cfg.exploring || sim_timed_active())
        return;
    bool others = false; /* members that may still take the pointer */
    for (int r = 0; r < f->size; r++)
        others |= r != k->me && !f->m[r].closed;
    if (!others)
        return;
    while (sim_choose(2, k->fn) == 1) {
        uint64_t takes = f->shared_takes, releases = sim_events_releases();
        while (f->shared_takes == takes && sim_events_releases() == releases)
            sim_poll_block();
        if (f->shared_takes == takes)
            return; /* released: nobody else could take it */
    }
}

/* Moves the data of an access (file bytes: converted already) at its
 * place; k->moved gets the bytes moved, k->req a nonblocking call's
 * request.  Reports errors through the file's handler. */
static int move_data(fcall *k, int where, MPI_Offset offset, void *buf, int count,
                     MPI_Datatype type, bool write, int coll, MPI_Request *request, void *site,
                     size_t asked) {
    sim_file *f = k->f;
    sim_file_member *m = k->m;
    const char *fn = k->fn;
    k->moved = 0;
    k->req = NULL;
    bool ordered = coll == SIM_COLL_FILE_READ_ORDERED || coll == SIM_COLL_FILE_WRITE_ORDERED ||
                   coll == SIM_COLL_FILE_READ_ORDERED_BEGIN ||
                   coll == SIM_COLL_FILE_WRITE_ORDERED_BEGIN;
    sim_file_coll_args a = {0};
    int rc;
    if (ordered) {
        a.buf = buf;
        a.count = count;
        a.type = type;
        a.write = write;
        rc = post(k, (sim_coll_kind)coll, &a, NULL, 0);
        k->moved = a.bytes;
        return rc;
    }
    if (where == AT_SHARED && coll < 0)
        shared_turn(k);
    MPI_Offset pos = where == AT_EXPLICIT ? offset : where == AT_INDIVIDUAL ? m->fp : f->shared_fp;
    if (where == AT_SHARED) { /* taken atomically: the next access starts after it */
        f->shared_fp += (MPI_Offset)(asked / m->view.esize);
        if (coll < 0) {
            f->shared_takes++;
            sim_events_changed(); /* members that let others go first look again */
        }
    }
    char *why = NULL;
    size_t bytes = 0;
    rc = sim_file_transfer(f, k->me, pos * (MPI_Offset)m->view.esize, buf, count, type, write, fn,
                           site, &bytes, &why);
    k->moved = bytes;
    if (where == AT_INDIVIDUAL)
        m->fp += (MPI_Offset)(bytes / m->view.esize);
    if (rc != MPI_SUCCESS) {
        rc = FERR(k, rc, "%s", why);
        g_free(why);
        return rc;
    }
    if (coll >= 0)
        return post(k, (sim_coll_kind)coll, &a, request, bytes);
    if (request) {
        sim_request *req = sim_req_new(SIM_REQ_RMA, fn);
        req->io_status = true;
        sim_status_set_bytes(&req->status, bytes);
        sim_req_complete(req);
        *request = sim_request_publish(req);
        k->req = req;
    }
    return MPI_SUCCESS;
}

/* One data access call.  coll: its collective kind, or -1 for an
 * independent access; split: a _begin call; request: nonblocking. */
static int access_call(const char *fn, MPI_File fh, where_kind where, MPI_Offset offset, void *buf,
                       int count, MPI_Datatype type, bool write, int coll, bool split,
                       MPI_Request *request, MPI_Status *status) {
    fcall k;
    int rc = begin(&k, fn, fh);
    if (rc != MPI_SUCCESS)
        return rc;
    if (where == AT_EXPLICIT)
        sim_call_args("fh='%s', offset=%lld, count=%d, datatype=%s", fname(k.f), (long long)offset,
                      count, sim_dt_name(type));
    else
        sim_call_args("fh='%s', count=%d, datatype=%s", fname(k.f), count, sim_dt_name(type));
    sim_file *f = k.f;
    sim_file_member *m = k.m;
    if (write && (f->amode & MPI_MODE_RDONLY))
        return FERR(&k, MPI_ERR_READ_ONLY, "%s: '%s' was opened MPI_MODE_RDONLY", fn, fname(f));
    if (!write && (f->amode & MPI_MODE_WRONLY))
        return FERR(&k, MPI_ERR_ACCESS, "%s: '%s' was opened MPI_MODE_WRONLY", fn, fname(f));
    if (where != AT_SHARED && (f->amode & MPI_MODE_SEQUENTIAL))
        return FERR(&k, MPI_ERR_UNSUPPORTED_OPERATION,
                    "%s: '%s' was opened with MPI_MODE_SEQUENTIAL, which allows only the shared "
                    "file pointer (MPI 3.1 13.2.1)",
                    fn, fname(f));
    if (count < 0)
        return FERR(&k, MPI_ERR_COUNT, "%s: count %d is negative", fn, count);
    const sim_datatype *dt = sim_dt_get(type);
    if (!dt || !sim_dt_committed(dt))
        return FERR(&k, MPI_ERR_TYPE, "%s: %s is not a committed datatype", fn, sim_dt_name(type));
    if (where == AT_EXPLICIT && offset < 0)
        return FERR(&k, MPI_ERR_ARG, "%s: offset %lld is negative", fn, (long long)offset);
    /* Under a representation other than "native" the data moves as its
     * file bytes, converted here, in the calling rank (MPI 3.1 13.5). */
    const sim_datarep *rep = m->rep;
    bool conv = rep->kind != SIM_REP_NATIVE;
    size_t fsize = sim_dt_size(dt); /* file bytes of one element */
    char *why = NULL;
    if (conv) {
        rc = sim_file_rep_size(rep, dt, 1, &fsize, &why);
        if (rc != MPI_SUCCESS) {
            rc = FERR(&k, rc, "%s: %s", fn, why);
            g_free(why);
            return rc;
        }
    }
    size_t asked = fsize * (size_t)count;
    if (fsize % m->view.esize != 0)
        return FERR(&k, MPI_ERR_TYPE,
                    "%s: %s holds %zu bytes%s, not a whole number of the view's etypes of %zu "
                    "bytes (MPI 3.1 13.4.1)",
                    fn, sim_dt_name(type), fsize, conv ? " in the file" : "", m->view.esize);
    if (!buf && asked > 0)
        return FERR(&k, MPI_ERR_BUFFER, "%s: buf is NULL", fn);
    if (conv && asked > INT_MAX)
        return FERR(&k, MPI_ERR_COUNT,
                    "%s: %zu bytes in data representation \"%s\": ordex "
                    "converts at most INT_MAX bytes per call",
                    fn, asked, rep->name);
    if (split && m->split)
        return FERR(&k, MPI_ERR_OTHER,
                    "%s: %s is still active on '%s'; one split collective at a time per file "
                    "handle (MPI 3.1 13.4.5)",
                    fn, m->split, fname(f));
    void *site = sim_proc_of(sim_self())->call_site;
    void *xbuf = buf;
    int xcount = count;
    MPI_Datatype xtype = type;
    char *raw = NULL;
    if (conv && asked > 0) {
        raw = g_malloc(asked);
        if (write) {
            rc = sim_file_rep_to_file(rep, buf, count, type, raw, asked, fn, &why);
            if (rc != MPI_SUCCESS) {
                g_free(raw);
                rc = FERR(&k, rc, "%s", why);
                g_free(why);
                return rc;
            }
        }
        xbuf = raw;
        xcount = (int)asked;
        xtype = MPI_BYTE;
    }
    rc = move_data(&k, where, offset, xbuf, xcount, xtype, write, coll, request, site, asked);
    size_t moved = k.moved;
    size_t bytes = moved;
    if (conv) {
        /* whole elements only: a part of one at the end of the file is not converted */
        int items = fsize ? (int)(moved / fsize) : 0;
        if (rc == MPI_SUCCESS && !write && items > 0) {
            rc = sim_file_rep_from_file(rep, raw, items, type, buf, fn, &why);
            if (rc != MPI_SUCCESS) {
                rc = FERR(&k, rc, "%s", why);
                g_free(why);
            }
        }
        bytes = (size_t)items * sim_dt_size(dt);
        if (k.req) /* the status of the wait counts the memory's bytes */
            sim_status_set_bytes(&k.req->status, bytes);
    }
    g_free(raw);
    /* MPI 3.1 13.4.5: the buffer of a nonblocking or split collective
     * access is not the program's to touch until the access completes; its
     * data moved here, but a store (or, for a read, a load) before the wait
     * or the _end is the program's race all the same. */
    if (rc == MPI_SUCCESS && request && k.req)
        k.req->access_key =
            sim_access_buffer_begin(sim_self(), buf, count, type, !write, fn, "buffer", site);
    if (rc != MPI_SUCCESS || request)
        return rc;
    if (split) {
        m->split = fn;
        m->split_bytes = bytes;
        m->split_buf = buf;
        m->split_key =
            sim_access_buffer_begin(sim_self(), buf, count, type, !write, fn, "buffer", site);
        return MPI_SUCCESS;
    }
    if (status != MPI_STATUS_IGNORE && status) {
        sim_status_set_bytes(status, bytes);
        status->count_hi_and_cancelled &= ~1;
    }
    return MPI_SUCCESS;
}

/* The _end of a split collective begun by `begun`. */
static int split_end(const char *fn, const char *begun, MPI_File fh, void *buf,
                     MPI_Status *status) {
    fcall k;
    int rc = begin(&k, fn, fh);
    if (rc != MPI_SUCCESS)
        return rc;
    sim_call_args("fh='%s'", fname(k.f));
    if (!k.m->split || strcmp(k.m->split, begun) != 0)
        return FERR(&k, MPI_ERR_OTHER,
                    "%s: the active split collective on '%s' is %s, not %s (MPI 3.1 13.4.5)", fn,
                    fname(k.f), k.m->split ? k.m->split : "none", begun);
    if (buf != k.m->split_buf)
        return FERR(&k, MPI_ERR_BUFFER,
                    "%s: buf %p is not the buffer %p that %s was given (MPI 3.1 13.4.5)", fn, buf,
                    k.m->split_buf, begun);
    if (status != MPI_STATUS_IGNORE && status) {
        sim_status_set_bytes(status, k.m->split_bytes);
        status->count_hi_and_cancelled &= ~1;
    }
    sim_access_buffer_end(k.m->split_key);
    k.m->split = NULL;
    k.m->split_bytes = 0;
    k.m->split_buf = NULL;
    k.m->split_key = 0;
    return MPI_SUCCESS;
}

#define NOREQ ((MPI_Request *)NULL)

/* Explicit offsets. */
#define DEF_AT(NAME, W, COLL)                                                                      \
    int PMPI_File_##NAME(MPI_File fh, MPI_Offset offset, ARG_BUF(W) buf, int count,                \
                         MPI_Datatype datatype, MPI_Status *status) {                              \
        SIM_ENTER("MPI_File_" #NAME);                                                              \
        SIM_RETURN(access_call("MPI_File_" #NAME, fh, AT_EXPLICIT, offset, (void *)buf, count,     \
                               datatype, IS_W(W), COLL, false, NOREQ, status));                    \
    }                                                                                              \
    SIM_ALIAS(MPI_File_##NAME)
#define ARG_BUF(W) ARG_BUF_##W
#define ARG_BUF_WR const void *
#define ARG_BUF_RD void *
#define IS_W(W) IS_W_##W
#define IS_W_WR true
#define IS_W_RD false

DEF_AT(read_at, RD, -1);
DEF_AT(write_at, WR, -1);
DEF_AT(read_at_all, RD, SIM_COLL_FILE_READ_AT_ALL);
DEF_AT(write_at_all, WR, SIM_COLL_FILE_WRITE_AT_ALL);

#define DEF_IAT(NAME, W, COLL)                                                                     \
    int PMPI_File_##NAME(MPI_File fh, MPI_Offset offset, ARG_BUF(W) buf, int count,                \
                         MPI_Datatype datatype, MPI_Request *request) {                            \
        SIM_ENTER("MPI_File_" #NAME);                                                              \
        if (!request)                                                                              \
            SIM_RETURN(                                                                            \
                sim_file_error(NULL, 0, MPI_ERR_ARG, "MPI_File_" #NAME ": request is NULL"));      \
        SIM_RETURN(access_call("MPI_File_" #NAME, fh, AT_EXPLICIT, offset, (void *)buf, count,     \
                               datatype, IS_W(W), COLL, false, request, MPI_STATUS_IGNORE));       \
    }                                                                                              \
    SIM_ALIAS(MPI_File_##NAME)

DEF_IAT(iread_at, RD, -1);
DEF_IAT(iwrite_at, WR, -1);
DEF_IAT(iread_at_all, RD, SIM_COLL_FILE_READ_AT_ALL);
DEF_IAT(iwrite_at_all, WR, SIM_COLL_FILE_WRITE_AT_ALL);

/* Individual and shared file pointers. */
#define DEF_PTR(NAME, WHERE, W, COLL)                                                              \
    int PMPI_File_##NAME(MPI_File fh, ARG_BUF(W) buf, int count, MPI_Datatype datatype,            \
                         MPI_Status *status) {                                                     \
        SIM_ENTER("MPI_File_" #NAME);                                                              \
        SIM_RETURN(access_call("MPI_File_" #NAME, fh, WHERE, 0, (void *)buf, count, datatype,      \
                               IS_W(W), COLL, false, NOREQ, status));                              \
    }                                                                                              \
    SIM_ALIAS(MPI_File_##NAME)

DEF_PTR(read, AT_INDIVIDUAL, RD, -1);
DEF_PTR(write, AT_INDIVIDUAL, WR, -1);
DEF_PTR(read_all, AT_INDIVIDUAL, RD, SIM_COLL_FILE_READ_ALL);
DEF_PTR(write_all, AT_INDIVIDUAL, WR, SIM_COLL_FILE_WRITE_ALL);
DEF_PTR(read_shared, AT_SHARED, RD, -1);
DEF_PTR(write_shared, AT_SHARED, WR, -1);
DEF_PTR(read_ordered, AT_SHARED, RD, SIM_COLL_FILE_READ_ORDERED);
DEF_PTR(write_ordered, AT_SHARED, WR, SIM_COLL_FILE_WRITE_ORDERED);

#define DEF_IPTR(NAME, WHERE, W, COLL)                                                             \
    int PMPI_File_##NAME(MPI_File fh, ARG_BUF(W) buf, int count, MPI_Datatype datatype,            \
                         MPI_Request *request) {                                                   \
        SIM_ENTER("MPI_File_" #NAME);                                                              \
        if (!request)                                                                              \
            SIM_RETURN(                                                                            \
                sim_file_error(NULL, 0, MPI_ERR_ARG, "MPI_File_" #NAME ": request is NULL"));      \
        SIM_RETURN(access_call("MPI_File_" #NAME, fh, WHERE, 0, (void *)buf, count, datatype,      \
                               IS_W(W), COLL, false, request, MPI_STATUS_IGNORE));                 \
    }                                                                                              \
    SIM_ALIAS(MPI_File_##NAME)

DEF_IPTR(iread, AT_INDIVIDUAL, RD, -1);
DEF_IPTR(iwrite, AT_INDIVIDUAL, WR, -1);
DEF_IPTR(iread_all, AT_INDIVIDUAL, RD, SIM_COLL_FILE_READ_ALL);
DEF_IPTR(iwrite_all, AT_INDIVIDUAL, WR, SIM_COLL_FILE_WRITE_ALL);
DEF_IPTR(iread_shared, AT_SHARED, RD, -1);
DEF_IPTR(iwrite_shared, AT_SHARED, WR, -1);

/* Split collectives. */
#define DEF_BEGIN_AT(NAME, W, COLL)                                                                \
    int PMPI_File_##NAME(MPI_File fh, MPI_Offset offset, ARG_BUF(W) buf, int count,                \
                         MPI_Datatype datatype) {                                                  \
        SIM_ENTER("MPI_File_" #NAME);                                                              \
        SIM_RETURN(access_call("MPI_File_" #NAME, fh, AT_EXPLICIT, offset, (void *)buf, count,     \
                               datatype, IS_W(W), COLL, true, NOREQ, MPI_STATUS_IGNORE));          \
    }                                                                                              \
    SIM_ALIAS(MPI_File_##NAME)
#define DEF_BEGIN(NAME, WHERE, W, COLL)                                                            \
    int PMPI_File_##NAME(MPI_File fh, ARG_BUF(W) buf, int count, MPI_Datatype datatype) {          \
        SIM_ENTER("MPI_File_" #NAME);                                                              \
        SIM_RETURN(access_call("MPI_File_" #NAME, fh, WHERE, 0, (void *)buf, count, datatype,      \
                               IS_W(W), COLL, true, NOREQ, MPI_STATUS_IGNORE));                    \
    }                                                                                              \
    SIM_ALIAS(MPI_File_##NAME)
#define DEF_END(NAME, BEGUN, W)                                                                    \
    int PMPI_File_##NAME(MPI_File fh, ARG_BUF(W) buf, MPI_Status *status) {                        \
        SIM_ENTER("MPI_File_" #NAME);                                                              \
        SIM_RETURN(split_end("MPI_File_" #NAME, "MPI_File_" #BEGUN, fh, (void *)buf, status));     \
    }                                                                                              \
    SIM_ALIAS(MPI_File_##NAME)

DEF_BEGIN_AT(read_at_all_begin, RD, SIM_COLL_FILE_READ_AT_ALL_BEGIN);
DEF_BEGIN_AT(write_at_all_begin, WR, SIM_COLL_FILE_WRITE_AT_ALL_BEGIN);
DEF_BEGIN(read_all_begin, AT_INDIVIDUAL, RD, SIM_COLL_FILE_READ_ALL_BEGIN);
DEF_BEGIN(write_all_begin, AT_INDIVIDUAL, WR, SIM_COLL_FILE_WRITE_ALL_BEGIN);
DEF_BEGIN(read_ordered_begin, AT_SHARED, RD, SIM_COLL_FILE_READ_ORDERED_BEGIN);
DEF_BEGIN(write_ordered_begin, AT_SHARED, WR, SIM_COLL_FILE_WRITE_ORDERED_BEGIN);
DEF_END(read_at_all_end, read_at_all_begin, RD);
DEF_END(write_at_all_end, write_at_all_begin, WR);
DEF_END(read_all_end, read_all_begin, RD);
DEF_END(write_all_end, write_all_begin, WR);
DEF_END(read_ordered_end, read_ordered_begin, RD);
DEF_END(write_ordered_end, write_ordered_begin, WR);
