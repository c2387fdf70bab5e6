/*
 * file.c - MPI-IO files on the host file system (see file.h and
 * docs/mpiio.md).
 */
#include "simulator/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
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
#include "simulator/sim_internal.h"
#include "simulator/timed.h"
#include "simulator/timed_internal.h"

/* The time model of a data access under predict (docs/mpiio.md): a fixed
 * cost per call and a cost per byte, as of a local disk's page cache. */
#define IO_CALL_SECONDS 10e-6
#define IO_BYTE_SECONDS 1e-9

/* Bytes of a file's contents that state hashes and outcomes read; a larger
 * file counts by its size and first bytes only. */
#define CONTENT_LIMIT (1u << 20)

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

static struct {
    int nranks;
    GPtrArray *files;            /* sim_file *, by index */
    GArray *ids;                 /* file_id; a file's id is its index + 1 */
    GHashTable *closed_contents; /* path -> checksum of the contents at the last close */
    GPtrArray **reps;            /* [nranks]: sim_datarep * each rank registered */
} F;

static const sim_datarep rep_native = {SIM_REP_NATIVE, "native", NULL, NULL, NULL, NULL};
static const sim_datarep rep_external32 = {
    SIM_REP_EXTERNAL32, "external32", NULL, NULL, NULL, NULL};

void sim_file_init(int nranks) {
    memset(&F, 0, sizeof F);
    F.nranks = nranks;
    F.files = g_ptr_array_new();
    F.ids = g_array_new(FALSE, FALSE, sizeof(file_id));
    F.closed_contents = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    F.reps = g_new0(GPtrArray *, nranks > 0 ? nranks : 1);
}

static void member_clear(sim_file_member *m) {
    sim_fview_clear(&m->view);
    if (m->etype_dt)
        sim_dt_unref(m->etype_dt);
    if (m->ftype_dt)
        sim_dt_unref(m->ftype_dt);
    m->etype_dt = m->ftype_dt = NULL;
    if (m->hints)
        g_ptr_array_free(m->hints, TRUE);
    m->hints = NULL;
}

void sim_file_fini(void) {
    if (!F.files)
        return;
    for (guint i = 0; i < F.files->len; i++) {
        sim_file *f = g_ptr_array_index(F.files, i);
        if (f->fd >= 0)
            close(f->fd);
        for (int r = 0; r < f->size; r++)
            member_clear(&f->m[r]);
        g_free(f->m);
        g_free(f->path);
        g_free(f);
    }
    g_ptr_array_free(F.files, TRUE);
    g_array_free(F.ids, TRUE);
    g_hash_table_destroy(F.closed_contents);
    for (int r = 0; r < F.nranks; r++)
        if (F.reps[r])
            g_ptr_array_free(F.reps[r], TRUE);
    g_free(F.reps);
    memset(&F, 0, sizeof F);
}

int sim_file_lookup(MPI_File fh, sim_file **out, int *me, char **why) {
    uintptr_t h = (uintptr_t)fh;
    if (fh == MPI_FILE_NULL) {
        *why = g_strdup("the file is MPI_FILE_NULL");
        return MPI_ERR_FILE;
    }
    unsigned v = (unsigned)h;
    if (h != v || SIM_HANDLE_KIND(v) != SIM_HKIND_DIRECT || SIM_HANDLE_OBJ(v) != SIM_OBJ_FILE ||
        SIM_HANDLE_INDEX(v) >= F.files->len) {
        *why = g_strdup_printf("%p is not a file handle", (void *)fh);
        return MPI_ERR_FILE;
    }
    sim_file *f = g_ptr_array_index(F.files, SIM_HANDLE_INDEX(v));
    int r = sim_comm_rank(f->comm, sim_self());
    if (r < 0) {
        *why = g_strdup_printf("file %p ('%s') was not opened by this rank", (void *)fh, f->path);
        return MPI_ERR_FILE;
    }
    if (f->m[r].closed) {
        *why = g_strdup_printf("file %p ('%s') was closed", (void *)fh, f->path);
        return MPI_ERR_FILE;
    }
    *out = f;
    *me = r;
    return MPI_SUCCESS;
}

MPI_Errhandler sim_file_errhandler(const sim_file *f, int me) {
    return f ? f->m[me].errh : sim_errh_file_default(sim_self());
}

int sim_file_error(sim_file *f, int me, int errclass, const char *fmt, ...) {
    MPI_Errhandler eh = sim_file_errhandler(f, me);
    if (eh == MPI_ERRORS_RETURN)
        return errclass;
    sim_errh_fn fn = sim_errh_function(sim_self(), eh);
    if (fn) {
        /* A file handler takes an MPI_File *, a pointer in MPICH's ABI. */
        void (*file_fn)(MPI_File *, int *, ...) = (void (*)(MPI_File *, int *, ...))fn;
        MPI_File handle = f ? f->handle : MPI_FILE_NULL;
        int code = errclass;
        sched_leave_sim();
        file_fn(&handle, &code);
        sched_enter_sim();
        return errclass;
    }
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    sim_fatal_error("%s (the file's error handler is MPI_ERRORS_ARE_FATAL)", msg);
}

/* ---------------------------------------------------------------------- */
/* Host files                                                              */

/* The MPI error class of a host error (MPI 3.1 13.7, table 13.3). */
static int class_of_errno(int e) {
    switch (e) {
    case ENOENT:
        return MPI_ERR_NO_SUCH_FILE;
    case EEXIST:
        return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM:
        return MPI_ERR_ACCESS;
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case ENOSPC:
    case EFBIG:
        return MPI_ERR_NO_SPACE;
    case EDQUOT:
        return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case EISDIR:
    case ENOTDIR:
        return MPI_ERR_BAD_FILE;
    case EBUSY:
    case ETXTBSY:
        return MPI_ERR_FILE_IN_USE;
    default:
        return MPI_ERR_IO;
    }
}

static int id_of(int fd) {
    struct stat st;
    if (fstat(fd, &st) != 0)
        return 0;
    for (guint i = 0; i < F.ids->len; i++) {
        const file_id *x = &g_array_index(F.ids, file_id, i);
        if (x->dev == st.st_dev && x->ino == st.st_ino)
            return (int)i + 1;
    }
    file_id x = {st.st_dev, st.st_ino};
    g_array_append_val(F.ids, x);
    return (int)F.ids->len;
}

/* Opens the host file as amode says.  The descriptor is also read for
 * state hashes, so a write-only file is opened for reading too when the
 * host allows it; O_APPEND is never used (MPI_MODE_APPEND only places the
 * file pointers, and pwrite would ignore offsets under it). */
static int host_open(const char *path, int amode, int *fd, char **why) {
    int flags =
        (amode & MPI_MODE_CREATE ? O_CREAT : 0) | (amode & MPI_MODE_EXCL ? O_EXCL : 0) | O_CLOEXEC;
    int acc = amode & MPI_MODE_RDONLY ? O_RDONLY : O_RDWR;
    *fd = open(path, flags | acc, 0666);
    if (*fd < 0 && errno == EACCES && (amode & MPI_MODE_WRONLY))
        *fd = open(path, flags | O_WRONLY, 0666);
    if (*fd >= 0)
        return MPI_SUCCESS;
    int e = errno;
    *why = g_strdup_printf("cannot open '%s': %s", path, g_strerror(e));
    return class_of_errno(e);
}

/* Reads up to CONTENT_LIMIT bytes of the file into a checksum. */
static char *content_checksum(int fd) {
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return NULL;
    GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
    int64_t size = st.st_size;
    g_checksum_update(ck, (const guchar *)&size, sizeof size);
    char buf[8192];
    off_t at = 0;
    while (at < st.st_size && at < (off_t)CONTENT_LIMIT) {
        ssize_t n = pread(fd, buf, sizeof buf, at);
        if (n <= 0)
            break;
        g_checksum_update(ck, (const guchar *)buf, (gssize)n);
        at += n;
    }
    char *s = g_strdup(g_checksum_get_string(ck));
    g_checksum_free(ck);
    return s;
}

/* ---------------------------------------------------------------------- */
/* Collectives                                                             */

static void fail_all(sim_coll *c, int rc, const char *why) {
    for (int r = 0; r < c->comm->size; r++) {
        sim_file_coll_args *a = c->args[r].file;
        a->rc = rc;
        a->why = g_strdup(why);
    }
}

/* All members must pass the same value (MPI_ERR_NOT_SAME otherwise). */
static bool same_values(sim_coll *c, const char *call, const char *what) {
    sim_file_coll_args *a0 = c->args[0].file;
    for (int r = 1; r < c->comm->size; r++) {
        sim_file_coll_args *a = c->args[r].file;
        if (a->value != a0->value || a->whence != a0->whence) {
            char *why = g_strdup_printf("%s: rank %d passes %s %lld but rank %d passes %lld; "
                                        "every process must pass the same (MPI 3.1 13)",
                                        call, sim_comm_world(c->comm, r), what, (long long)a->value,
                                        sim_comm_world(c->comm, 0), (long long)a0->value);
            fail_all(c, MPI_ERR_NOT_SAME, why);
            g_free(why);
            return false;
        }
    }
    return true;
}

static void exec_open(sim_coll *c) {
    sim_comm *parent = c->comm;
    int n = parent->size;
    sim_file_coll_args *a0 = c->args[0].file;
    for (int r = 1; r < n; r++) {
        sim_file_coll_args *a = c->args[r].file;
        char *why = NULL;
        if (a->amode != a0->amode)
            why = g_strdup_printf("MPI_File_open: rank %d passes amode %d but rank %d passes %d",
                                  sim_comm_world(parent, r), a->amode, sim_comm_world(parent, 0),
                                  a0->amode);
        else if (strcmp(a->path, a0->path) != 0)
            why = g_strdup_printf("MPI_File_open: rank %d opens '%s' but rank %d opens '%s'",
                                  sim_comm_world(parent, r), a->path, sim_comm_world(parent, 0),
                                  a0->path);
        if (why) {
            char *msg = g_strdup_printf("%s; every process must open the same file with the "
                                        "same access mode (MPI 3.1 13.2.1)",
                                        why);
            g_free(why);
            why = msg;
            fail_all(c, MPI_ERR_NOT_SAME, why);
            g_free(why);
            return;
        }
    }
    int fd;
    char *why = NULL;
    int rc = host_open(a0->path, a0->amode, &fd, &why);
    if (rc != MPI_SUCCESS) {
        char *msg = g_strdup_printf("MPI_File_open: %s", why);
        fail_all(c, rc, msg);
        g_free(msg);
        g_free(why);
        return;
    }
    sim_file *f = g_new0(sim_file, 1);
    f->index = (int)F.files->len;
    f->handle = (MPI_File)(uintptr_t)(unsigned)SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_FILE, f->index);
    char *how = g_strdup_printf("file '%s'", a0->path);
    f->comm = sim_comm_make_private(parent, how);
    g_free(how);
    f->path = g_strdup(a0->path);
    f->fd = fd;
    f->id = id_of(fd);
    f->amode = a0->amode;
    f->size = n;
    f->m = g_new0(sim_file_member, n);
    MPI_Offset end = 0;
    if (a0->amode & MPI_MODE_APPEND) {
        struct stat st;
        if (fstat(fd, &st) == 0)
            end = st.st_size;
    }
    /* MPI 3.1 13.2.1: with MPI_MODE_APPEND every file pointer starts at
     * the end of the file (in bytes: the default view's etypes). */
    f->shared_fp = end;
    for (int r = 0; r < n; r++) {
        sim_file_member *m = &f->m[r];
        m->world = sim_comm_world(parent, r);
        m->fp = end;
        sim_fview_default(&m->view);
        m->etype = m->ftype = MPI_BYTE;
        g_strlcpy(m->datarep, "native", sizeof m->datarep);
        m->rep = &rep_native;
        m->errh = sim_errh_file_default(m->world);
        sim_file_coll_args *a = c->args[r].file;
        *a->out = f->handle;
        a->rc = MPI_SUCCESS;
        sim_touch_rank(m->world);
    }
    g_ptr_array_add(F.files, f);
}

static void exec_close(sim_coll *c, sim_file *f) {
    char *sum = content_checksum(f->fd);
    if (sum)
        g_hash_table_replace(F.closed_contents, g_strdup(f->path), sum);
    f->closed = true;
    if (f->amode & MPI_MODE_DELETE_ON_CLOSE)
        unlink(f->path);
    for (int r = 0; r < f->size; r++) {
        f->m[r].closed = true;
        ((sim_file_coll_args *)c->args[r].file)->rc = MPI_SUCCESS;
    }
}

/* MPI_File_read_ordered / write_ordered: each member's data lands after
 * the lower ranks' at the shared file pointer (MPI 3.1 13.4.4). */
static void exec_ordered(sim_coll *c, sim_file *f) {
    for (int r = 0; r < f->size; r++) {
        sim_file_coll_args *a = c->args[r].file;
        const sim_file_member *m = &f->m[r];
        MPI_Offset k = f->shared_fp * (MPI_Offset)m->view.esize;
        size_t bytes = 0;
        char *why = NULL;
        a->rc = sim_file_transfer(f, r, k, a->buf, a->count, a->type, a->write, a->call, a->site,
                                  &bytes, &why);
        a->why = why;
        a->bytes = bytes;
        /* The pointer moves past what was asked for, even at the end of
         * the file, so that ranks never share bytes. */
        const sim_datatype *dt = sim_dt_get(a->type);
        size_t asked = dt ? sim_dt_size(dt) * (size_t)a->count : 0;
        f->shared_fp += (MPI_Offset)(asked / m->view.esize);
    }
}

int sim_file_exec_coll(sim_coll *c, int *err_rank, char **why) {
    (void)err_rank;
    (void)why;
    if (c->kind == SIM_COLL_FILE_OPEN) {
        exec_open(c);
        return MPI_SUCCESS;
    }
    sim_file_coll_args *a0 = c->args[0].file;
    if (!a0) /* a nonblocking collective access: its data moved at each call */
        return MPI_SUCCESS;
    sim_file *f = a0->f;
    for (int r = 0; r < c->comm->size; r++)
        ((sim_file_coll_args *)c->args[r].file)->rc = MPI_SUCCESS;
    switch (c->kind) {
    case SIM_COLL_FILE_CLOSE:
        exec_close(c, f);
        break;
    case SIM_COLL_FILE_SET_SIZE:
    case SIM_COLL_FILE_PREALLOCATE: {
        bool set = c->kind == SIM_COLL_FILE_SET_SIZE;
        const char *call = set ? "MPI_File_set_size" : "MPI_File_preallocate";
        if (!same_values(c, call, "size"))
            break;
        struct stat st;
        int rc = fstat(f->fd, &st);
        /* MPI_File_preallocate never shrinks (MPI 3.1 13.2.5). */
        if (rc == 0 && (set || st.st_size < a0->value))
            rc = ftruncate(f->fd, (off_t)a0->value);
        if (rc != 0) {
            char *msg = g_strdup_printf("%s: '%s': %s", call, f->path, g_strerror(errno));
            fail_all(c, class_of_errno(errno), msg);
            g_free(msg);
        }
        break;
    }
    case SIM_COLL_FILE_SET_ATOMICITY:
        if (same_values(c, "MPI_File_set_atomicity", "flag"))
            f->atomic = a0->value != 0;
        break;
    case SIM_COLL_FILE_SEEK_SHARED: {
        if (!same_values(c, "MPI_File_seek_shared", "offset (and whence)"))
            break;
        MPI_Offset base = a0->whence == MPI_SEEK_SET   ? 0
                          : a0->whence == MPI_SEEK_CUR ? f->shared_fp
                                                       : a0->end;
        if (base + a0->value < 0) {
            fail_all(c, MPI_ERR_ARG,
                     "MPI_File_seek_shared: the shared file pointer would fall before the "
                     "start of the view");
            break;
        }
        f->shared_fp = base + a0->value;
        break;
    }
    case SIM_COLL_FILE_SET_VIEW:
        /* Every member's datarep and etype extent must agree (MPI 3.1
         * 13.3); the views themselves were set at each call. */
        for (int r = 1; r < f->size; r++) {
            sim_file_coll_args *a = c->args[r].file;
            if (a->value != a0->value || strcmp(a->datarep, a0->datarep) != 0) {
                char *msg = g_strdup_printf(
                    "MPI_File_set_view: rank %d passes datarep \"%s\" and an etype of extent "
                    "%lld, rank %d \"%s\" and %lld; MPI 3.1 13.3 requires the same on every "
                    "process",
                    sim_comm_world(c->comm, r), a->datarep, (long long)a->value,
                    sim_comm_world(c->comm, 0), a0->datarep, (long long)a0->value);
                fail_all(c, MPI_ERR_NOT_SAME, msg);
                g_free(msg);
                break;
            }
        }
        if (a0->rc == MPI_SUCCESS)
            f->shared_fp = 0;
        break;
    case SIM_COLL_FILE_READ_ORDERED:
    case SIM_COLL_FILE_WRITE_ORDERED:
    case SIM_COLL_FILE_READ_ORDERED_BEGIN:
    case SIM_COLL_FILE_WRITE_ORDERED_BEGIN:
        exec_ordered(c, f);
        break;
    default: /* a synchronisation only: sync, set_info, the collective accesses */
        break;
    }
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------------- */
/* Data access                                                             */

typedef struct xfer {
    sim_file *f;
    char *tmp;
    bool write;
    size_t moved;
    bool stop;    /* a read met the end of the file */
    int err;      /* errno of a failed host call */
    GArray *runs; /* int64_t pairs: the file bytes accessed */
} xfer;

static bool xfer_run(MPI_Offset off, size_t len, size_t pos, void *user) {
    xfer *x = user;
    size_t done = 0;
    while (done < len) {
        ssize_t n =
            x->write
                ? pwrite(x->f->fd, x->tmp + pos + done, len - done, (off_t)(off + (MPI_Offset)done))
                : pread(x->f->fd, x->tmp + pos + done, len - done, (off_t)(off + (MPI_Offset)done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            x->err = errno;
            break;
        }
        if (n == 0) { /* end of file (reads only) */
            x->stop = true;
            break;
        }
        done += (size_t)n;
    }
    if (done) {
        int64_t run[2] = {off, off + (int64_t)done};
        g_array_append_vals(x->runs, run, 2);
    }
    x->moved = pos + done;
    return done == len && !x->err;
}

/* Packing the program's buffer, or unpacking into it: under
 * sched_protected, so that a bad buffer is an error of the call, not a
 * crash of ordex. */
typedef struct copy_ctx {
    const sim_datatype *dt;
    void *buf;
    int count;
    char *tmp;
    size_t bytes;
    bool pack;
} copy_ctx;

static void copy_cb(void *p) {
    copy_ctx *c = p;
    if (c->pack)
        sim_dt_pack(c->dt, c->buf, c->count, c->tmp);
    else
        sim_dt_unpack(c->dt, c->tmp, c->bytes, c->buf, c->count);
}

static bool copy_protected(copy_ctx *c, const char *call, char **why) {
    sched_fault fault;
    if (sched_protected(copy_cb, c, &fault))
        return true;
    *why = g_strdup_printf("%s: the buffer %p cannot be %s (invalid address %p)", call, c->buf,
                           c->pack ? "read" : "written", fault.addr);
    return false;
}

int sim_file_transfer(sim_file *f, int me, MPI_Offset k, void *buf, int count, MPI_Datatype type,
                      bool write, const char *call, void *site, size_t *bytes, char **why) {
    *bytes = 0;
    const sim_datatype *dt = sim_dt_get(type);
    size_t total = dt ? sim_dt_size(dt) * (size_t)count : 0;
    if (total == 0)
        return MPI_SUCCESS;
    sim_file_member *m = &f->m[me];
    xfer x = {f, g_malloc(total), write, 0, false, 0, g_array_new(FALSE, FALSE, sizeof(int64_t))};
    copy_ctx cc = {dt, buf, count, x.tmp, 0, true};
    if (write && !copy_protected(&cc, call, why)) {
        g_array_free(x.runs, TRUE);
        g_free(x.tmp);
        return MPI_ERR_BUFFER;
    }
    sim_fview_each_run(&m->view, k, total, xfer_run, &x);
    if (!write && x.moved) {
        cc.pack = false;
        cc.bytes = x.moved;
        sim_touch_rank(m->world);
        if (!copy_protected(&cc, call, why)) {
            g_array_free(x.runs, TRUE);
            g_free(x.tmp);
            return MPI_ERR_BUFFER;
        }
    }
    *bytes = x.moved;
    if (x.runs->len) {
        sim_file_access a = {m->world,
                             f->id,
                             f->path,
                             (const int64_t *)(const void *)x.runs->data,
                             x.runs->len / 2,
                             write,
                             f->atomic,
                             call,
                             site};
        sim_access_file_add(&a);
    }
    if (sim_timed_active())
        sim_timed_charge(m->world, IO_CALL_SECONDS + IO_BYTE_SECONDS * (double)x.moved);
    g_array_free(x.runs, TRUE);
    g_free(x.tmp);
    if (x.err) {
        *why = g_strdup_printf("%s: %s '%s': %s", call, write ? "writing" : "reading", f->path,
                               g_strerror(x.err));
        return class_of_errno(x.err);
    }
    return MPI_SUCCESS;
}

void sim_file_synced(sim_file *f, int me, const char *call, void *site) {
    sim_access_file_sync(f->m[me].world, f->id, call, site);
}

/* ---------------------------------------------------------------------- */
/* Data representations                                                    */

int sim_file_register_datarep(int world, const char *name, MPI_Datarep_conversion_function *rd,
                              MPI_Datarep_conversion_function *wr, MPI_Datarep_extent_function *ext,
                              void *extra, char **why) {
    if (strlen(name) > MPI_MAX_DATAREP_STRING) {
        *why = g_strdup_printf("the name \"%s\" is longer than MPI_MAX_DATAREP_STRING (%d)", name,
                               MPI_MAX_DATAREP_STRING);
        return MPI_ERR_ARG;
    }
    if (!ext) {
        *why = g_strdup("dtype_file_extent_fn is NULL");
        return MPI_ERR_ARG;
    }
    if (sim_file_datarep(world, name) || strcmp(name, "internal") == 0) {
        *why = g_strdup_printf("the data representation \"%s\" is already defined (MPI 3.1 "
                               "13.5.3)",
                               name);
        return MPI_ERR_DUP_DATAREP;
    }
    sim_datarep *d = g_new0(sim_datarep, 1);
    d->kind = SIM_REP_USER;
    g_strlcpy(d->name, name, sizeof d->name);
    d->read_fn = rd;
    d->write_fn = wr;
    d->extent_fn = ext;
    d->extra = extra;
    if (!F.reps[world])
        F.reps[world] = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(F.reps[world], d);
    return MPI_SUCCESS;
}

const sim_datarep *sim_file_datarep(int world, const char *name) {
    if (strcmp(name, "native") == 0)
        return &rep_native;
    if (strcmp(name, "external32") == 0)
        return &rep_external32;
    for (guint i = 0; F.reps[world] && i < F.reps[world]->len; i++) {
        const sim_datarep *d = g_ptr_array_index(F.reps[world], i);
        if (strcmp(d->name, name) == 0)
            return d;
    }
    return NULL;
}

typedef struct rep_walk {
    const sim_datarep *rep;
    size_t bytes;
    MPI_Datatype bad;
    int rc;
} rep_walk;

static bool add_file_extent(MPI_Datatype basic, size_t count, void *data) {
    rep_walk *w = data;
    MPI_Aint ext = 0;
    sched_leave_sim();
    int rc = w->rep->extent_fn(basic, &ext, w->rep->extra);
    sched_enter_sim();
    if (rc != MPI_SUCCESS || ext < 0) {
        w->bad = basic;
        w->rc = rc;
        return false;
    }
    w->bytes += count * (size_t)ext;
    return true;
}

int sim_file_rep_size(const sim_datarep *rep, const sim_datatype *dt, size_t count, size_t *bytes,
                      char **why) {
    if (rep->kind == SIM_REP_NATIVE) {
        *bytes = sim_dt_size(dt) * count;
        return MPI_SUCCESS;
    }
    if (rep->kind == SIM_REP_EXTERNAL32)
        return sim_dt_external32_size(dt, count, bytes, why);
    rep_walk w = {rep, 0, MPI_DATATYPE_NULL, MPI_SUCCESS};
    if (!sim_typesig_each_run(sim_dt_typesig(dt), count, add_file_extent, &w)) {
        *why = g_strdup_printf("the extent function of data representation \"%s\" fails for "
                               "%s (it returns %d)",
                               rep->name, sim_dt_name(w.bad), w.rc);
        return MPI_ERR_CONVERSION;
    }
    *bytes = w.bytes;
    return MPI_SUCCESS;
}

typedef struct ext32_ctx {
    const sim_datatype *dt;
    void *buf;
    int count;
    void *file;
    bool pack;
    int rc;
    char *why;
} ext32_ctx;

static void ext32_cb(void *p) {
    ext32_ctx *c = p;
    if (c->pack)
        c->rc = sim_dt_pack_external32(c->dt, c->buf, c->count, c->file, &c->why);
    else
        sim_dt_unpack_external32(c->dt, c->file, c->buf, c->count);
}

static int ext32_protected(ext32_ctx *c, const char *call, char **why) {
    sched_fault fault;
    if (!sched_protected(ext32_cb, c, &fault)) {
        g_free(c->why);
        *why = g_strdup_printf("%s: the buffer %p cannot be %s (invalid address %p)", call, c->buf,
                               c->pack ? "read" : "written", fault.addr);
        return MPI_ERR_BUFFER;
    }
    if (c->rc != MPI_SUCCESS) {
        *why = g_strdup_printf("%s: %s", call, c->why);
        g_free(c->why);
    }
    return c->rc;
}

/* Data items per call of a conversion function: MPI 3.1 13.5.3 lets an
 * implementation convert through a buffer smaller than the access, and
 * converting in chunks is what makes the position argument mean anything. */
#define CONVERT_CHUNK_BYTES (64u << 10)

/* MPI_CONVERSION_FN_NULL: the access is made in the native representation
 * (MPI 3.1 13.5.3), which only data of native sizes can be. */
static int null_conversion(const sim_datarep *rep, const sim_datatype *dt, int count, size_t bytes,
                           const char *call, char **why) {
    if (bytes == sim_dt_size(dt) * (size_t)count)
        return MPI_SUCCESS;
    *why = g_strdup_printf(
        "%s: data representation \"%s\" has MPI_CONVERSION_FN_NULL, so the data is accessed "
        "in the native representation, but its extent function gives %s %zu bytes in the file "
        "where it has %zu in memory (MPI 3.1 13.5.3)",
        call, rep->name, sim_dt_name(sim_dt_handle(dt)), bytes / (size_t)count, sim_dt_size(dt));
    return MPI_ERR_CONVERSION;
}

static int convert_user(const sim_datarep *rep, bool to_file, void *buf, int count,
                        MPI_Datatype type, char *file, size_t bytes, const char *call, char **why) {
    const sim_datatype *dt = sim_dt_get(type);
    MPI_Datarep_conversion_function *fn = to_file ? rep->write_fn : rep->read_fn;
    if (!fn) {
        int rc = null_conversion(rep, dt, count, bytes, call, why);
        if (rc != MPI_SUCCESS)
            return rc;
        copy_ctx cc = {dt, buf, count, file, bytes, to_file};
        return copy_protected(&cc, call, why) ? MPI_SUCCESS : MPI_ERR_BUFFER;
    }
    /* MPI 3.1 13.5.3: count and position count data items, the entries of
     * the type map of datatype tiled over the buffer; chunks here end at
     * whole elements of datatype. */
    size_t item = bytes / (size_t)count; /* file bytes of one element */
    int per = sim_dt_elements_of(dt, sim_dt_size(dt));
    if (per <= 0 || (int64_t)per * count > INT_MAX) {
        *why = g_strdup_printf("%s: %d elements of %s are more data items than a conversion "
                               "function's count can hold",
                               call, count, sim_dt_name(type));
        return MPI_ERR_COUNT;
    }
    int chunk = item >= CONVERT_CHUNK_BYTES ? 1 : (int)(CONVERT_CHUNK_BYTES / (item ? item : 1));
    for (int done = 0; done < count;) {
        int n = count - done < chunk ? count - done : chunk;
        sched_leave_sim();
        int rc =
            fn(buf, type, n * per, file + (size_t)done * item, (MPI_Offset)done * per, rep->extra);
        sched_enter_sim();
        if (rc != MPI_SUCCESS) {
            *why = g_strdup_printf("%s: the %s conversion function of data representation \"%s\" "
                                   "returns %d for %d data items of %s at position %lld",
                                   call, to_file ? "write" : "read", rep->name, rc, n * per,
                                   sim_dt_name(type), (long long)done * per);
            return MPI_ERR_CONVERSION;
        }
        done += n;
    }
    return MPI_SUCCESS;
}

int sim_file_rep_to_file(const sim_datarep *rep, void *buf, int count, MPI_Datatype type, void *out,
                         size_t bytes, const char *call, char **why) {
    if (count == 0 || bytes == 0)
        return MPI_SUCCESS;
    if (rep->kind == SIM_REP_EXTERNAL32) {
        ext32_ctx c = {sim_dt_get(type), buf, count, out, true, MPI_SUCCESS, NULL};
        return ext32_protected(&c, call, why);
    }
    return convert_user(rep, true, buf, count, type, out, bytes, call, why);
}

int sim_file_rep_from_file(const sim_datarep *rep, const void *in, int count, MPI_Datatype type,
                           void *buf, const char *call, char **why) {
    if (count == 0)
        return MPI_SUCCESS;
    if (rep->kind == SIM_REP_EXTERNAL32) {
        ext32_ctx c = {sim_dt_get(type), buf, count, (void *)in, false, MPI_SUCCESS, NULL};
        return ext32_protected(&c, call, why);
    }
    size_t bytes = 0;
    int rc = sim_file_rep_size(rep, sim_dt_get(type), (size_t)count, &bytes, why);
    if (rc != MPI_SUCCESS)
        return rc;
    return convert_user(rep, false, buf, count, type, (char *)in, bytes, call, why);
}

/* ---------------------------------------------------------------------- */
/* State and outcome                                                       */

static void feed_member(const sim_file_member *m, sim_digest_feed feed, void *user) {
    int64_t v[8] = {m->world,
                    m->closed,
                    m->fp,
                    m->view.disp,
                    (int64_t)m->view.esize,
                    (int64_t)m->view.tsize,
                    m->view.extent,
                    (int64_t)m->split_bytes};
    feed(user, v, sizeof v);
    feed(user, m->view.blocks, sizeof(sim_fview_block) * m->view.nblocks);
    if (m->split)
        feed(user, m->split, strlen(m->split));
    feed(user, m->datarep, strlen(m->datarep) + 1);
}

void sim_file_digest(sim_digest_feed feed, void *user) {
    if (!F.files)
        return;
    for (guint i = 0; i < F.files->len; i++) {
        const sim_file *f = g_ptr_array_index(F.files, i);
        if (f->closed)
            continue;
        int64_t v[4] = {f->index, f->amode, f->atomic, f->shared_fp};
        feed(user, v, sizeof v);
        for (int r = 0; r < f->size; r++)
            feed_member(&f->m[r], feed, user);
        char *sum = content_checksum(f->fd);
        if (sum)
            feed(user, sum, strlen(sum));
        g_free(sum);
    }
    for (int r = 0; r < F.nranks; r++)
        for (guint i = 0; F.reps[r] && i < F.reps[r]->len; i++) {
            const sim_datarep *d = g_ptr_array_index(F.reps[r], i);
            feed(user, &r, sizeof r);
            feed(user, d, sizeof *d);
        }
}

void sim_file_outcome(sim_digest_feed feed, void *user) {
    if (!F.files)
        return;
    GHashTable *now = g_hash_table_new(g_str_hash, g_str_equal);
    GPtrArray *owned = g_ptr_array_new_with_free_func(g_free);
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, F.closed_contents);
    while (g_hash_table_iter_next(&it, &k, &v))
        g_hash_table_replace(now, k, v);
    for (guint i = 0; i < F.files->len; i++) {
        const sim_file *f = g_ptr_array_index(F.files, i);
        char *sum = !f->closed ? content_checksum(f->fd) : NULL;
        if (sum) {
            g_ptr_array_add(owned, sum);
            g_hash_table_replace(now, f->path, sum);
        }
    }
    /* In the order of the names, whatever order they were opened in. */
    GList *names = g_list_sort(g_hash_table_get_keys(now), (GCompareFunc)strcmp);
    for (GList *l = names; l; l = l->next) {
        const char *sum = g_hash_table_lookup(now, l->data);
        feed(user, l->data, strlen(l->data) + 1);
        feed(user, sum, strlen(sum));
    }
    g_list_free(names);
    g_hash_table_destroy(now);
    g_ptr_array_free(owned, TRUE);
}
