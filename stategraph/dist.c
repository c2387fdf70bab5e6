/*
 * dist.c - the ordex side of a distributed exploration (dist.h): starting
 * the agent, and what the driver and the exploring process say to it
 * (dist_proto.h).  The driver uses the `ctl` socket, the exploring process
 * (and, with fork snapshots, whichever of its copies runs) the `work`
 * socket; each asks one question at a time and waits for the answer.
 */
#define _GNU_SOURCE
#include "stategraph/dist.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stategraph/dist_proto.h"
#include "stategraph/explore_internal.h"
#include "stategraph/outcomes.h"
#include "stategraph/visited.h"

static bool g_on;
static int g_rank, g_size = 1;
static int g_ctl = -1, g_work = -1;
static pid_t g_agent;
static sgd_mailbox *g_mail;
static bool g_result_sent;
static bool g_failed; /* the driver lost its agent */
/* In an exploring process: the pass's stop was told to the coordinator. */
static bool g_stop_told;

bool sg_dist_failed(void) {
    return g_failed;
}

int sg_dist_rank(void) {
    return g_rank;
}

int sg_dist_size(void) {
    return g_size;
}

bool sgx_dist_on(void) {
    return g_on;
}

static bool executable(const char *p) {
    return p && access(p, X_OK) == 0;
}

char *sg_dist_agent_path(void) {
    const char *env = g_getenv("ORDEX_DIST_AGENT");
    if (env)
        return executable(env) ? g_strdup(env) : NULL;
    char *self = g_file_read_link("/proc/self/exe", NULL);
    if (self) {
        char *dir = g_path_get_dirname(self);
        char *p = g_build_filename(dir, "ordex-dist-agent", NULL);
        /* Bazel's output tree keeps it in stategraph/, beside cli/. */
        char *q = g_build_filename(dir, "..", "stategraph", "ordex-dist-agent", NULL);
        g_free(dir);
        g_free(self);
        if (executable(p)) {
            g_free(q);
            return p;
        }
        g_free(p);
        if (executable(q))
            return q;
        g_free(q);
    }
    const char *home = g_getenv("ORDEX_HOME");
    if (home) {
        char *p = g_build_filename(home, ".cache", "bin", "ordex-dist-agent", NULL);
        if (executable(p))
            return p;
        g_free(p);
    }
    return NULL;
}

/* Seconds an agent may stay silent (ORDEX_DIST_TIMEOUT, default 30): it
 * sends a keepalive each second to whoever waits for its answer. */
static double timeout_s(void) {
    const char *t = g_getenv("ORDEX_DIST_TIMEOUT");
    return t && g_ascii_strtod(t, NULL) > 0 ? g_ascii_strtod(t, NULL) : 30;
}

/* Why the agent is lost to this process (static text), once it is. */
static const char *g_lost_why;

/* Reads the answer to a question on fd, skipping keepalives.  False when
 * the agent ended or said nothing for the timeout (*why says which), or,
 * with `interrupted` given, when a signal came before any of the answer
 * (*interrupted set). */
static bool answer(int fd, uint32_t *type, GByteArray *m, bool *interrupted, const char **why) {
    double limit = timeout_s();
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int k = poll(&p, 1, (int)(limit * 1000));
        if (k < 0 && errno == EINTR) {
            if (interrupted) {
                *interrupted = true;
                return false;
            }
            continue;
        }
        if (k == 0) {
            *why = "the MPI agent of this rank stopped answering";
            return false;
        }
        if (k < 0 || !sgd_recv(fd, type, m, NULL)) {
            *why = "the MPI agent of this rank ended";
            return false;
        }
        if (*type != SGD_KEEPALIVE)
            return true;
    }
}

/* Waits for one answer on the driver's socket. */
static bool ctl_answer(uint32_t *type, GByteArray *m) {
    const char *why = NULL;
    bool ok = answer(g_ctl, type, m, NULL, &why);
    if (ok && *type == SGD_FAILED) {
        /* the agent says why: rank 0 stopped answering, for instance */
        static char said[256];
        if (m->len)
            snprintf(said, sizeof said, "%.*s", (int)m->len, (const char *)m->data);
        else
            g_strlcpy(said, "the MPI agent of this rank failed", sizeof said);
        why = said;
    }
    if ((!ok || *type == SGD_FAILED) && !g_lost_why) {
        g_lost_why = why;
        if (g_getenv("ORDEX_DIST_DEBUG"))
            fprintf(stderr, "[ordex %d] lost the agent: %s\n", g_rank, why);
    }
    g_failed = g_failed || !ok || *type == SGD_FAILED;
    return ok;
}

const char *sg_dist_failure(void) {
    return g_lost_why;
}

static bool ctl_send(uint32_t type, const void *data, size_t len) {
    bool ok = sgd_send(g_ctl, type, data, len);
    if (!ok && !g_failed && g_getenv("ORDEX_DIST_DEBUG"))
        fprintf(stderr, "[ordex %d] cannot send %u to the agent\n", g_rank, type);
    g_failed = g_failed || !ok;
    return ok;
}

/* fd moved to a number above those programs commonly close (its old
 * number closed), or fd itself when that fails. */
static int high_fd(int fd) {
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 1000);
    if (moved < 0)
        return fd;
    close(fd);
    return moved;
}

bool sg_dist_start(char **err) {
    char *agent = sg_dist_agent_path();
    if (!agent) {
        *err = g_strdup("cannot find ordex-dist-agent, the MPI transport of --distributed "
                        "(tools/build.sh builds it beside ordex; ORDEX_DIST_AGENT names "
                        "another)");
        return false;
    }
    int ctl[2], work[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctl) != 0) {
        *err = g_strdup_printf("cannot make a socket for the MPI agent: %s", g_strerror(errno));
        g_free(agent);
        return false;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, work) != 0) {
        *err = g_strdup_printf("cannot make a socket for the MPI agent: %s", g_strerror(errno));
        close(ctl[0]);
        close(ctl[1]);
        g_free(agent);
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        /* The agent's ends survive the exec; PMI's descriptors and
         * variables, inherited from mpiexec.mpich, make it this rank. */
        fcntl(ctl[1], F_SETFD, 0);
        fcntl(work[1], F_SETFD, 0);
        char a[16], b[16];
        snprintf(a, sizeof a, "%d", ctl[1]);
        snprintf(b, sizeof b, "%d", work[1]);
        execl(agent, agent, a, b, (char *)NULL);
        _exit(127);
    }
    close(ctl[1]);
    close(work[1]);
    if (pid < 0) {
        *err = g_strdup_printf("cannot start %s: %s", agent, g_strerror(errno));
        close(ctl[0]);
        close(work[0]);
        g_free(agent);
        return false;
    }
    g_agent = pid;
    /* High descriptors: a program that closes the ones it inherited (3 to
     * 255, say) must not close ordex's. */
    g_ctl = high_fd(ctl[0]);
    g_work = high_fd(work[0]);
    GByteArray *m = g_byte_array_new();
    uint32_t type = 0;
    bool ok = ctl_answer(&type, m) && type == SGD_READY && m->len == 8;
    if (ok) {
        int32_t v[2];
        memcpy(v, m->data, 8);
        g_rank = v[0];
        g_size = v[1];
    } else {
        *err = type == SGD_FAILED ? g_strdup_printf("%s: %.*s", agent, (int)m->len, m->data)
               : g_lost_why && strstr(g_lost_why, "stopped answering")
                   ? g_strdup_printf("the MPI job did not start within %.0f s "
                                     "(ORDEX_DIST_TIMEOUT): another of its processes may "
                                     "have failed before joining it (see its message)",
                                     timeout_s())
                   : g_strdup_printf("%s ended before it joined the MPI job (run ordex "
                                     "--distributed under mpiexec.mpich)",
                                     agent);
    }
    /* The mailbox the agent writes the coordinator's word into. */
    if (ok) {
        int fd = memfd_create("ordex-mailbox", MFD_CLOEXEC);
        void *p = MAP_FAILED;
        if (fd >= 0 && ftruncate(fd, sizeof(sgd_mailbox)) == 0)
            p = mmap(NULL, sizeof(sgd_mailbox), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        ok = p != MAP_FAILED && sgd_send_fd(g_ctl, SGD_MAILBOX, NULL, 0, fd) &&
             ctl_answer(&type, m) && type == SGD_ACK;
        if (fd >= 0)
            close(fd);
        if (ok)
            g_mail = p;
        else
            *err = g_strdup("cannot share memory with the MPI agent");
    }
    g_byte_array_free(m, TRUE);
    g_free(agent);
    if (!ok) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        close(g_ctl);
        close(g_work);
        g_ctl = g_work = -1;
        g_agent = 0;
        return false;
    }
    g_on = true;
    return true;
}

void sg_dist_share_status(int status) {
    if (g_on && g_rank == 0) {
        int32_t st = status;
        ctl_send(SGD_STATUS, &st, 4);
    }
}

int sg_dist_wait_status(void) {
    if (!g_on || g_rank == 0 || g_failed)
        return 2;
    GByteArray *m = g_byte_array_new();
    uint32_t type = 0;
    int status = 2;
    while (ctl_answer(&type, m) && type != SGD_FAILED) {
        if (type == SGD_STATUS && m->len == 4) {
            int32_t st;
            memcpy(&st, m->data, 4);
            status = st;
            break;
        }
    }
    g_byte_array_free(m, TRUE);
    return status;
}

void sg_dist_end(void) {
    if (!g_on)
        return;
    if (g_rank != 0 && !g_result_sent)
        sgd_send(g_ctl, SGD_RESULT, NULL, 0);
    sgd_send(g_ctl, SGD_QUIT, NULL, 0);
    close(g_ctl);
    close(g_work);
    /* MPI_Finalize may wait for the other ranks' agents: a bounded wait. */
    for (int i = 0; i < 600; i++) {
        pid_t w = waitpid(g_agent, NULL, WNOHANG);
        if (w == g_agent || (w < 0 && errno != EINTR))
            break;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (i == 599) {
            kill(g_agent, SIGKILL);
            waitpid(g_agent, NULL, 0);
        }
    }
    g_on = false;
    g_ctl = g_work = -1;
}

/* ---------------------------------------------------------------------- */
/* The driver                                                              */

bool sgd_pass_begin(int pass, int visited_fd) {
    int32_t p = pass;
    GByteArray *m = g_byte_array_new();
    uint32_t type = 0;
    bool ok = sgd_send_fd(g_ctl, SGD_PASS_BEGIN, &p, 4, visited_fd) && ctl_answer(&type, m) &&
              type == SGD_ACK;
    if (!ok && g_getenv("ORDEX_DIST_DEBUG"))
        fprintf(stderr, "[ordex %d] pass %d could not begin\n", g_rank, pass);
    g_failed = g_failed || !ok;
    g_byte_array_free(m, TRUE);
    return ok;
}

bool sgd_progress(const uint64_t mine[3], double done, uint64_t sum[3], double *sum_done) {
    sgd_progress_counts c = {{mine[0], mine[1], mine[2]}, done};
    GByteArray *m = g_byte_array_new();
    uint32_t type = 0;
    bool ok = ctl_send(SGD_PROGRESS, &c, sizeof c) && ctl_answer(&type, m) &&
              type == SGD_PROGRESS && m->len == sizeof c;
    if (ok) {
        memcpy(&c, m->data, sizeof c);
        memcpy(sum, c.counts, sizeof c.counts);
        *sum_done = c.done;
    }
    g_byte_array_free(m, TRUE);
    return ok;
}

static void put_str(GByteArray *b, const char *s) {
    uint32_t n = s ? (uint32_t)strlen(s) : 0;
    g_byte_array_append(b, (guint8 *)&n, 4);
    if (n)
        g_byte_array_append(b, (const guint8 *)s, n);
}

static char *get_str(const GByteArray *b, size_t *at) {
    uint32_t n = 0;
    if (*at + 4 <= b->len)
        memcpy(&n, b->data + *at, 4);
    *at += 4;
    if (*at + n > b->len)
        n = *at <= b->len ? (uint32_t)(b->len - *at) : 0;
    char *s = n ? g_strndup((const char *)b->data + *at, n) : NULL;
    *at += n;
    return s;
}

bool sgd_pass_done(const sgd_pass_stats *mine, const char *stop_why, const char *switch_why,
                   sgd_pass_totals *tot) {
    memset(tot, 0, sizeof *tot);
    GByteArray *b = g_byte_array_new();
    g_byte_array_append(b, (const guint8 *)mine, sizeof *mine);
    put_str(b, stop_why);
    put_str(b, switch_why);
    uint32_t type = 0;
    bool ok = ctl_send(SGD_PASS_DONE, b->data, b->len) && ctl_answer(&type, b) &&
              type == SGD_PASS_TOTALS && b->len >= sizeof(sgd_pass_stats);
    if (ok) {
        memcpy(&tot->stats, b->data, sizeof tot->stats);
        size_t at = sizeof tot->stats;
        tot->stop_why = get_str(b, &at);
        tot->switch_why = get_str(b, &at);
        tot->lost_why = get_str(b, &at);
        int32_t all = 0;
        if (at + 4 <= b->len)
            memcpy(&all, b->data + at, 4);
        tot->stop_all = all != 0;
    }
    g_byte_array_free(b, TRUE);
    return ok;
}

void sgd_pass_totals_clear(sgd_pass_totals *t) {
    g_free(t->stop_why);
    g_free(t->switch_why);
    g_free(t->lost_why);
    memset(t, 0, sizeof *t);
}

bool sgd_send_result(const GByteArray *record) {
    g_result_sent = true;
    return ctl_send(SGD_RESULT, record->data, record->len);
}

bool sgd_gather(void (*take)(int rank, const unsigned char *data, size_t len, void *user),
                void *user) {
    if (!ctl_send(SGD_GATHER, NULL, 0))
        return false;
    GByteArray *m = g_byte_array_new();
    uint32_t type = 0;
    bool ok = false;
    while (ctl_answer(&type, m)) {
        if (type == SGD_ACK) {
            ok = true;
            break;
        }
        if (type == SGD_RESULT && m->len >= 4) {
            int32_t r;
            memcpy(&r, m->data, 4);
            take(r, m->data + 4, m->len - 4, user);
        }
    }
    g_byte_array_free(m, TRUE);
    return ok;
}

int sgd_ctl_fd(void) {
    return g_ctl;
}

/* ---------------------------------------------------------------------- */
/* The exploring process                                                   */

/* The agent is gone (why, or NULL: it ended): this process cannot go on
 * with the others. */
static void agent_lost(const char *why) {
    char text[256];
    snprintf(text, sizeof text, "%s: the distributed exploration cannot go on",
             why ? why : "the MPI agent of this rank ended");
    sgx_stop_all(text);
    g_stop_told = true;
}

void sgx_dist_poll(void) {
    if (!g_on || !__atomic_load_n(&g_mail->stop, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&sgx_sh->stop, __ATOMIC_ACQUIRE))
        return;
    g_stop_told = true; /* it came from the coordinator */
    if (__atomic_load_n(&g_mail->stop_all, __ATOMIC_ACQUIRE))
        sgx_stop_all(g_mail->why);
    else
        sgx_stop_pass(g_mail->why);
}

/* Tells the coordinator that this rank's pass stopped (a limit, a signal),
 * so that every rank stops. */
static void tell_stop(void) {
    if (!g_on || g_stop_told || !__atomic_load_n(&sgx_sh->stop, __ATOMIC_ACQUIRE))
        return;
    g_stop_told = true;
    GByteArray *b = g_byte_array_new();
    int32_t all = __atomic_load_n(&sgx_sh->stop_all, __ATOMIC_ACQUIRE) ? 1 : 0;
    g_byte_array_append(b, (guint8 *)&all, 4);
    put_str(b, sgx_sh->stop_why);
    if (!sgd_send(g_work, SGD_STOP, b->data, b->len))
        agent_lost(NULL);
    g_byte_array_free(b, TRUE);
}

/* Keys known to be in another rank's share are kept in this rank's table
 * too (the global set only grows during a pass), so that a state this rank
 * inserted or met before is settled without asking again: most merges are
 * with states the same rank reached before.  The keys are another's, so
 * the visits this rank's agent answers never see them. */
static bool known_here(const ckpt_hash *probes, int nprobes, const ckpt_hash *inserts,
                       int ninserts) {
    for (int i = 0; i < nprobes; i++)
        if (sg_visited_contains(probes[i]))
            return true;
    return ninserts > 0 && sg_visited_contains(inserts[0]);
}

static void remember(const ckpt_hash *keys, int n) {
    for (int i = 0; i < n; i++) {
        bool full; /* a full table only stops remembering */
        sg_visited_visit(NULL, 0, &keys[i], 1, &full, NULL);
    }
}

bool sgx_visit(ckpt_hash state, const ckpt_hash *probes, int nprobes, const ckpt_hash *inserts,
               int ninserts, bool *full) {
    int owner = g_on ? sgd_owner(state.hi, g_size) : 0;
    if (!g_on || owner == g_rank)
        return sg_visited_visit(probes, nprobes, inserts, ninserts, full, NULL);
    *full = false;
    if (known_here(probes, nprobes, inserts, ninserts))
        return true;
    sgd_visit v = {sgx_x.pass, owner, nprobes, ninserts};
    GByteArray *b = g_byte_array_sized_new(
        (guint)(sizeof v + (size_t)(nprobes + ninserts) * sizeof(ckpt_hash)));
    g_byte_array_append(b, (guint8 *)&v, sizeof v);
    g_byte_array_append(b, (const guint8 *)probes, (guint)(nprobes * sizeof(ckpt_hash)));
    g_byte_array_append(b, (const guint8 *)inserts, (guint)(ninserts * sizeof(ckpt_hash)));
    uint32_t type = 0;
    bool seen = false;
    const char *why = NULL;
    if (sgd_send(g_work, SGD_VISIT, b->data, b->len) && answer(g_work, &type, b, NULL, &why) &&
        type == SGD_VISIT_R && b->len == sizeof(sgd_visit_answer)) {
        sgd_visit_answer a;
        memcpy(&a, b->data, sizeof a);
        seen = a.which >= 0;
        *full = a.full != 0;
        if (!seen)
            remember(inserts, ninserts);
        else if (a.which < nprobes)
            remember(&probes[a.which], 1);
        else if (a.which == nprobes && ninserts > 0)
            remember(inserts, 1);
    } else {
        agent_lost(why); /* unseen: the path goes on to its stop */
    }
    g_byte_array_free(b, TRUE);
    return seen;
}

bool sgx_dist_take_work(GArray *prefix) {
    tell_stop();
    int32_t pass = sgx_x.pass;
    if (!sgd_send(g_work, SGD_WANT_WORK, &pass, 4)) {
        agent_lost(NULL);
        return false;
    }
    GByteArray *m = g_byte_array_new();
    bool got = false;
    for (;;) {
        uint32_t type = 0;
        bool interrupted = false;
        const char *why = NULL;
        if (!answer(g_work, &type, m, &interrupted, &why)) {
            if (interrupted) {
                tell_stop(); /* a signal stopped this rank while it waited */
                continue;
            }
            agent_lost(why);
            break;
        }
        if (type == SGD_WORK) {
            g_array_set_size(prefix, 0);
            g_array_append_vals(prefix, m->data, m->len / sizeof(int));
            got = true;
        }
        break;
    }
    g_byte_array_free(m, TRUE);
    return got;
}

bool sgx_dist_donate_wanted(void) {
    return g_on && __atomic_load_n(&g_mail->donate_wanted, __ATOMIC_ACQUIRE);
}

void sgx_dist_donate(const GByteArray *prefixes) {
    __atomic_store_n(&g_mail->donate_wanted, 0, __ATOMIC_RELEASE);
    GByteArray *b = g_byte_array_new();
    int32_t pass = sgx_x.pass;
    g_byte_array_append(b, (guint8 *)&pass, 4);
    g_byte_array_append(b, prefixes->data, prefixes->len);
    if (!sgd_send(g_work, SGD_DONATE, b->data, b->len))
        agent_lost(NULL);
    g_byte_array_free(b, TRUE);
}

static int add_object(struct dl_phdr_info *info, size_t size, void *user) {
    ckpt_hash_u64(user, (uint64_t)info->dlpi_addr);
    ckpt_hash_u64(user, (uint64_t)info->dlpi_phnum);
    return 0;
}

void sgx_dist_check(void) {
    if (!g_on)
        return;
    /* Where every object (ordex, its libraries, each rank's copy of the
     * program) was loaded, and where ordex keeps its static strings: states
     * and recorded steps hold such addresses. */
    ckpt_hasher h;
    ckpt_hasher_init(&h);
    dl_iterate_phdr(add_object, &h);
    ckpt_hash_u64(&h, (uint64_t)(uintptr_t) "ordex");
    /* And where ordex's heap stands: rank stacks hold leftovers of its
     * addresses, so ranks whose heaps differ hash the same state
     * differently (explore.c, prepare_pass_roots). */
    void *probe = g_malloc(64);
    ckpt_hash_u64(&h, (uint64_t)(uintptr_t)probe);
    g_free(probe);
    ckpt_hash id = ckpt_hasher_final(&h);
    unsigned char b[20];
    int32_t pass = sgx_x.pass;
    memcpy(b, &pass, 4);
    memcpy(b + 4, &id, 16);
    if (!sgd_send(g_work, SGD_CHECK, b, sizeof b))
        agent_lost(NULL);
}
