/*
 * procstate.c - the C library's process-wide state, per rank (see
 * procstate.h): getopt, the environment, rand and drand48, strtok, getpid,
 * fork and _exit.  Signals are in signals.c.
 */
#define _GNU_SOURCE
#include "scheduler/procstate.h"

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

char **sched_ps_outer_environ;

/* The rank whose parse getopt's hidden position (inside the C library)
 * follows; -1 for none. */
static int g_getopt_owner = -1;

/* strtok's position for ordex's own calls. */
static char *g_strtok_pos;

/* The forked child's parent as its getppid() reports it. */
static pid_t g_parent_pid;

/* ---- the C library's own definitions ---------------------------------- */

void *sched_ps_next(const char *name) {
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) {
        static const char msg[] = "ordex: the C library lacks a function ordex replaces\n";
        ssize_t ignored = write(2, msg, sizeof msg - 1);
        (void)ignored;
        abort();
    }
    return p;
}

#define NEXT SCHED_NEXT

static int (*real_getopt)(int, char *const *, const char *);
static int (*real___posix_getopt)(int, char *const *, const char *);
static int (*real_getopt_long)(int, char *const *, const char *, const struct option *, int *);
static int (*real_getopt_long_only)(int, char *const *, const char *, const struct option *, int *);
static int (*real_rand)(void);
static void (*real_srand)(unsigned);
static long (*real_random)(void);
static void (*real_srandom)(unsigned);
static char *(*real_initstate)(unsigned, char *, size_t);
static char *(*real_setstate)(char *);
static double (*real_drand48)(void);
static double (*real_erand48)(unsigned short[3]);
static long (*real_lrand48)(void);
static long (*real_nrand48)(unsigned short[3]);
static long (*real_mrand48)(void);
static long (*real_jrand48)(unsigned short[3]);
static void (*real_srand48)(long);
static unsigned short *(*real_seed48)(unsigned short[3]);
static void (*real_lcong48)(unsigned short[7]);
static int (*real_setenv)(const char *, const char *, int);
static int (*real_unsetenv)(const char *);
static int (*real_putenv)(char *);
static int (*real_clearenv)(void);
static pid_t (*real_getpid)(void);
static pid_t (*real_getppid)(void);
static pid_t (*real_fork)(void);
static void (*real__exit)(int);

void sched_ps_resolve_signals(void); /* signals.c */

void sched_ps_resolve(void) {
    (void)NEXT(getopt);
    (void)NEXT(__posix_getopt);
    (void)NEXT(getopt_long);
    (void)NEXT(getopt_long_only);
    (void)NEXT(rand);
    (void)NEXT(srand);
    (void)NEXT(random);
    (void)NEXT(srandom);
    (void)NEXT(initstate);
    (void)NEXT(setstate);
    (void)NEXT(drand48);
    (void)NEXT(erand48);
    (void)NEXT(lrand48);
    (void)NEXT(nrand48);
    (void)NEXT(mrand48);
    (void)NEXT(jrand48);
    (void)NEXT(srand48);
    (void)NEXT(seed48);
    (void)NEXT(lcong48);
    (void)NEXT(setenv);
    (void)NEXT(unsetenv);
    (void)NEXT(putenv);
    (void)NEXT(clearenv);
    (void)NEXT(getpid);
    (void)NEXT(getppid);
    (void)NEXT(fork);
    (void)NEXT(_exit);
    sched_ps_resolve_signals();
}

void sched_ps_reset(void) {
    g_getopt_owner = -1;
}

sched_procstate *sched_ps_new(sched_arena *a, int rank, char **env, uint64_t mask) {
    sched_procstate *ps = sched_arena_malloc(a, sizeof *ps);
    if (!ps)
        return NULL;
    memset(ps, 0, sizeof *ps);
    ps->rank = rank;
    ps->optind = 1;
    ps->opterr = 1;
    ps->optopt = '?';
    ps->environ = env;
    ps->blocked = mask;
    ps->alt_flags = SS_DISABLE;
    return ps;
}

char **sched_ps_env_snapshot(void) {
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **copy = g_new(char *, n + 1);
    if (n)
        memcpy(copy, environ, n * sizeof *copy);
    copy[n] = NULL;
    return copy;
}

/* ---- getopt ------------------------------------------------------------- */

/* getopt keeps a pointer into the argument it is parsing inside the C
 * library, out of reach.  A rank's first parse starts afresh (optind 0
 * makes the C library start over, as in a new process); a parse that
 * another rank's interrupted goes on from the rank's own optind, which the
 * C library accepts as the user moving optind (only a group of short
 * options, "-abc", cut in the middle by another rank's parse, loses its
 * place). */
static void getopt_enter(sched_procstate *ps) {
    if (g_getopt_owner != ps->rank) {
        if (!ps->getopt_used && optind == 1)
            optind = 0;
        g_getopt_owner = ps->rank;
    }
    ps->getopt_used = true;
}

int getopt(int argc, char *const argv[], const char *optstring) {
    sched_procstate *ps = sched_ps_running();
    if (ps)
        getopt_enter(ps);
    return NEXT(getopt)(argc, argv, optstring);
}

/* What <unistd.h> calls getopt under strict POSIX. */
int __posix_getopt(int argc, char *const argv[], const char *optstring) {
    sched_procstate *ps = sched_ps_running();
    if (ps)
        getopt_enter(ps);
    return NEXT(__posix_getopt)(argc, argv, optstring);
}

int getopt_long(int argc, char *const argv[], const char *optstring, const struct option *lo,
                int *index) {
    sched_procstate *ps = sched_ps_running();
    if (ps)
        getopt_enter(ps);
    return NEXT(getopt_long)(argc, argv, optstring, lo, index);
}

int getopt_long_only(int argc, char *const argv[], const char *optstring, const struct option *lo,
                     int *index) {
    sched_procstate *ps = sched_ps_running();
    if (ps)
        getopt_enter(ps);
    return NEXT(getopt_long_only)(argc, argv, optstring, lo, index);
}

/* ---- strtok --------------------------------------------------------------- */

char *strtok(char *s, const char *delim) {
    sched_procstate *ps = sched_ps_running();
    return strtok_r(s, delim, ps ? &ps->strtok_pos : &g_strtok_pos);
}

/* ---- rand, random, drand48 ---------------------------------------------- */

/* The rank's random() state, set up on first use exactly as the C library's
 * initial one (initstate(1, table, 128)). */
static struct random_data *rank_random(sched_procstate *ps) {
    if (!ps->rand_ready) {
        memset(&ps->rand, 0, sizeof ps->rand);
        initstate_r(1, (char *)ps->rand_tbl, sizeof ps->rand_tbl, &ps->rand);
        ps->rand_ready = true;
    }
    return &ps->rand;
}

int rand(void) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(rand)();
    int32_t v;
    random_r(rank_random(ps), &v);
    return v;
}

long random(void) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(random)();
    int32_t v;
    random_r(rank_random(ps), &v);
    return v;
}

void srand(unsigned seed) {
    sched_procstate *ps = sched_ps_running();
    if (!ps) {
        NEXT(srand)(seed);
        return;
    }
    srandom_r(seed, rank_random(ps));
}

void srandom(unsigned seed) {
    sched_procstate *ps = sched_ps_running();
    if (!ps) {
        NEXT(srandom)(seed);
        return;
    }
    srandom_r(seed, rank_random(ps));
}

/* Like the C library's: the old state is the word before the state proper,
 * where its type and position are kept. */
char *initstate(unsigned seed, char *state, size_t n) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(initstate)(seed, state, n);
    struct random_data *rd = rank_random(ps);
    char *old = (char *)&rd->state[-1];
    return initstate_r(seed, state, n, rd) == 0 ? old : NULL;
}

char *setstate(char *state) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(setstate)(state);
    struct random_data *rd = rank_random(ps);
    char *old = (char *)&rd->state[-1];
    return setstate_r(state, rd) == 0 ? old : NULL;
}

double drand48(void) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(drand48)();
    double r;
    drand48_r(&ps->drand, &r);
    return r;
}

double erand48(unsigned short x[3]) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(erand48)(x);
    double r;
    erand48_r(x, &ps->drand, &r);
    return r;
}

long lrand48(void) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(lrand48)();
    long r;
    lrand48_r(&ps->drand, &r);
    return r;
}

long nrand48(unsigned short x[3]) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(nrand48)(x);
    long r;
    nrand48_r(x, &ps->drand, &r);
    return r;
}

long mrand48(void) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(mrand48)();
    long r;
    mrand48_r(&ps->drand, &r);
    return r;
}

long jrand48(unsigned short x[3]) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(jrand48)(x);
    long r;
    jrand48_r(x, &ps->drand, &r);
    return r;
}

void srand48(long seed) {
    sched_procstate *ps = sched_ps_running();
    if (!ps) {
        NEXT(srand48)(seed);
        return;
    }
    srand48_r(seed, &ps->drand);
}

unsigned short *seed48(unsigned short seed[3]) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(seed48)(seed);
    seed48_r(seed, &ps->drand);
    return ps->drand.__old_x;
}

void lcong48(unsigned short param[7]) {
    sched_procstate *ps = sched_ps_running();
    if (!ps) {
        NEXT(lcong48)(param);
        return;
    }
    lcong48_r(param, &ps->drand);
}

/* ---- the environment ---------------------------------------------------- */

/* The C library's getenv reads environ, which is the rank's while it runs;
 * changes go to an array of the rank's own, in its heap, made on the first
 * change (the C library's setenv would write into the array shared by every
 * rank, and keeps bookkeeping of its own across ranks). */

static bool bad_name(const char *name) {
    if (!name || !*name || strchr(name, '=')) {
        errno = EINVAL;
        return true;
    }
    return false;
}

static size_t env_count(char **env) {
    size_t n = 0;
    while (env && env[n])
        n++;
    return n;
}

/* Index of the entry NAME=... in env, or -1. */
static ssize_t env_find(char **env, const char *name, size_t len) {
    for (size_t i = 0; env && env[i]; i++)
        if (strncmp(env[i], name, len) == 0 && env[i][len] == '=')
            return (ssize_t)i;
    return -1;
}

/* environ as an array the rank may change, with room for one more entry;
 * NULL (errno ENOMEM) when the rank's heap is full. */
static char **env_writable(sched_procstate *ps) {
    size_t n = env_count(environ);
    if (environ && environ == ps->env_own && n + 1 < ps->env_cap)
        return environ;
    size_t cap = (n + 1) * 2 + 8;
    char **a;
    if (environ && environ == ps->env_own) {
        a = realloc(environ, cap * sizeof *a);
    } else {
        /* The program's own array, or the shared start: copy (the old array
         * stays: the program may still hold it, as with the C library). */
        a = malloc(cap * sizeof *a);
        if (a && n && environ) /* n > 0 implies environ; said for the analyzer */
            memcpy(a, environ, n * sizeof *a);
    }
    if (!a) {
        errno = ENOMEM;
        return NULL;
    }
    a[n] = NULL;
    ps->env_own = a;
    ps->env_cap = cap;
    environ = a;
    return a;
}

/* Sets entry NAME=... (the string s) in the rank's environment. */
static int env_put(sched_procstate *ps, const char *name, size_t len, char *s) {
    char **env = env_writable(ps);
    if (!env)
        return -1;
    ssize_t i = env_find(env, name, len);
    if (i >= 0) {
        env[i] = s;
    } else {
        size_t n = env_count(env);
        env[n] = s;
        env[n + 1] = NULL;
    }
    return 0;
}

static int env_remove(sched_procstate *ps, const char *name, size_t len) {
    if (env_find(environ, name, len) < 0)
        return 0;
    char **env = env_writable(ps);
    if (!env)
        return -1;
    size_t to = 0;
    for (size_t i = 0; env[i]; i++)
        if (!(strncmp(env[i], name, len) == 0 && env[i][len] == '='))
            env[to++] = env[i];
    env[to] = NULL;
    return 0;
}

int setenv(const char *name, const char *value, int overwrite) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(setenv)(name, value, overwrite);
    if (bad_name(name))
        return -1;
    size_t len = strlen(name);
    if (!overwrite && env_find(environ, name, len) >= 0)
        return 0;
    size_t vlen = strlen(value);
    char *s = malloc(len + vlen + 2);
    if (!s) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(s, name, len);
    s[len] = '=';
    memcpy(s + len + 1, value, vlen + 1);
    if (env_put(ps, name, len, s) != 0) {
        free(s);
        return -1;
    }
    return 0;
}

int unsetenv(const char *name) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(unsetenv)(name);
    if (bad_name(name))
        return -1;
    return env_remove(ps, name, strlen(name));
}

int putenv(char *string) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(putenv)(string);
    const char *eq = strchr(string, '=');
    if (!eq) /* the C library's putenv("NAME") removes NAME */
        return env_remove(ps, string, strlen(string));
    return env_put(ps, string, (size_t)(eq - string), string);
}

int clearenv(void) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(clearenv)();
    environ = NULL;
    return 0;
}

/* ---- pids, fork, _exit ---------------------------------------------------- */

int sched_rank_pid(int rank) {
    return SCHED_RANK_PID_BASE + rank;
}

pid_t getpid(void) {
    sched_procstate *ps = sched_forked_child ? NULL : sched_ps_running();
    return ps ? sched_rank_pid(ps->rank) : NEXT(getpid)();
}

pid_t getppid(void) {
    if (sched_forked_child && sched_ps_running())
        return g_parent_pid;
    return NEXT(getppid)();
}

/* A child forked by rank code is a process of its own that runs that rank's
 * code: it must never run the scheduler (that would run every other rank a
 * second time).  sched_become_forked_child marks it, and every way back to
 * the scheduler (main returning, exit, an MPI call, a crash) ends it
 * instead. */
pid_t fork(void) {
    sched_procstate *ps = sched_ps_running();
    if (!ps)
        return NEXT(fork)();
    pid_t self = sched_forked_child ? NEXT(getpid)() : sched_rank_pid(ps->rank);
    /* ordex's own buffered output would be written twice. */
    fflush(NULL);
    pid_t pid = NEXT(fork)();
    if (pid == 0) {
        g_parent_pid = self;
        sched_become_forked_child();
    }
    return pid;
}

/* vfork's child may only call _exit or exec; fork gives it more room. */
pid_t vfork(void) {
    return fork();
}

void _exit(int code) {
    if (sched_ps_running())
        sched_exit_current(code);
    NEXT(_exit)(code);
    __builtin_unreachable();
}

void _Exit(int code) {
    _exit(code);
}

_Noreturn void sched_real_exit(int code) {
    NEXT(_exit)(code);
    __builtin_unreachable();
}
