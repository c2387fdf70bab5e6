/*
 * shmem_api.c - the OpenSHMEM 1.4 API that programs call, as Open MPI's
 * shmem.h declares it (the header is included, so every definition is
 * checked against its declaration).  Each function enters like an MPI call
 * (its return address is the program's call site) and hands over to
 * shmem.c.  The typed families are generated from the header's type lists.
 * What is not defined here is a weak stub
 * (gen_shmem_stubs.sh) that stops the run with an `unsupported` finding
 * when called.
 */
#include <shmem.h>

#include "simulator/shmem.h"
#include "simulator/sim_internal.h"

#define ENTER(name) sim_call_enter((name), __builtin_return_address(0), __builtin_frame_address(0))
#define LEAVE() sim_call_leave()

/* The default context, which SHMEM_CTX_DEFAULT names (shmem.c knows it as
 * context 0; shmem_ctx_create's contexts are handles of shmem.c's). */
static struct { int dummy; } default_ctx;
shmem_ctx_t oshmem_ctx_default = (shmem_ctx_t)&default_ctx;

/* ---------------------------------------------------------------------- */
/* Start, end, queries                                                     */

void shmem_init(void) {
    ENTER("shmem_init");
    sim_shmem_do_init(SHMEM_THREAD_SINGLE);
    LEAVE();
}

void start_pes(int npes) {
    (void)npes; /* ignored, as OpenSHMEM 1.2 allows */
    ENTER("start_pes");
    sim_shmem_do_init(SHMEM_THREAD_SINGLE);
    LEAVE();
}

int shmem_init_thread(int requested, int *provided) {
    ENTER("shmem_init_thread");
    /* PEs are contexts of one thread: at most FUNNELED, as for MPI. */
    int level = requested < SHMEM_THREAD_FUNNELED ? requested : SHMEM_THREAD_FUNNELED;
    if (level < SHMEM_THREAD_SINGLE)
        level = SHMEM_THREAD_SINGLE;
    sim_shmem_do_init(level);
    if (provided)
        *provided = level;
    LEAVE();
    return 0;
}

void shmem_query_thread(int *provided) {
    ENTER("shmem_query_thread");
    sim_shmem_check_active();
    if (provided)
        *provided = sim_shmem_thread_level();
    LEAVE();
}

void shmem_finalize(void) {
    ENTER("shmem_finalize");
    sim_shmem_do_finalize();
    LEAVE();
}

void shmem_global_exit(int status) {
    ENTER("shmem_global_exit");
    sim_shmem_global_exit(status);
}

void globalexit(int status) {
    ENTER("globalexit");
    sim_shmem_global_exit(status);
}

#define QUERY(fn, expr)                                                                            \
    int fn(void) {                                                                                 \
        ENTER(#fn);                                                                                \
        sim_shmem_check_active();                                                                  \
        int v = (expr);                                                                            \
        LEAVE();                                                                                   \
        return v;                                                                                  \
    }
QUERY(shmem_n_pes, sim_shmem_npes())
QUERY(shmem_my_pe, sim_shmem_mype())
QUERY(num_pes, sim_shmem_npes())
QUERY(_num_pes, sim_shmem_npes())
QUERY(my_pe, sim_shmem_mype())
QUERY(_my_pe, sim_shmem_mype())

void shmem_info_get_version(int *major, int *minor) {
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name) {
    g_strlcpy(name, "ordex simulated OpenSHMEM 1.4", SHMEM_MAX_NAME_LEN);
}

int shmem_pe_accessible(int pe) {
    ENTER("shmem_pe_accessible");
    sim_shmem_check_active();
    int v = sim_shmem_pe_valid(pe);
    LEAVE();
    return v;
}

int shmem_addr_accessible(const void *addr, int pe) {
    ENTER("shmem_addr_accessible");
    sim_shmem_check_active();
    int v = sim_shmem_pe_valid(pe) && sim_shmem_addr_symmetric(addr);
    LEAVE();
    return v;
}

void *shmem_ptr(const void *ptr, int pe) {
    ENTER("shmem_ptr");
    sim_shmem_check_active();
    void *v = sim_shmem_ptr(ptr, pe);
    LEAVE();
    return v;
}

/* The cache routines are deprecated and do nothing (OpenSHMEM 1.4 D.1). */
void shmem_udcflush(void) {}
void shmem_udcflush_line(void *target) {
    (void)target;
}
void shmem_set_cache_inv(void) {}
void shmem_set_cache_line_inv(void *target) {
    (void)target;
}
void shmem_clear_cache_inv(void) {}
void shmem_clear_cache_line_inv(void *target) {
    (void)target;
}

/* ---------------------------------------------------------------------- */
/* The symmetric heap                                                      */

#define ALLOC(fn, call, params, align, size, zero)                                                 \
    void *fn params {                                                                              \
        ENTER(call);                                                                               \
        void *p = sim_shmem_alloc((align), (size), (zero));                                        \
        LEAVE();                                                                                   \
        return p;                                                                                  \
    }
ALLOC(shmem_malloc, "shmem_malloc", (size_t size), 0, size, false)
ALLOC(shmalloc, "shmalloc", (size_t size), 0, size, false)
ALLOC(shmem_align, "shmem_align", (size_t align, size_t size), align, size, false)
ALLOC(shmemalign, "shmemalign", (size_t align, size_t size), align, size, false)

void *shmem_calloc(size_t count, size_t size) {
    ENTER("shmem_calloc");
    size_t bytes;
    void *p = NULL;
    if (!__builtin_mul_overflow(count, size, &bytes))
        p = sim_shmem_alloc(0, bytes, true);
    else
        sim_shmem_check_active();
    LEAVE();
    return p;
}

#define REALLOC(fn, call)                                                                          \
    void *fn(void *ptr, size_t size) {                                                             \
        ENTER(call);                                                                               \
        void *p = sim_shmem_realloc(ptr, size);                                                    \
        LEAVE();                                                                                   \
        return p;                                                                                  \
    }
REALLOC(shmem_realloc, "shmem_realloc")
REALLOC(shrealloc, "shrealloc")

#define FREE(fn, call)                                                                             \
    void fn(void *ptr) {                                                                           \
        ENTER(call);                                                                               \
        sim_shmem_free(ptr);                                                                       \
        LEAVE();                                                                                   \
    }
FREE(shmem_free, "shmem_free")
FREE(shfree, "shfree")

/* ---------------------------------------------------------------------- */
/* Puts and gets                                                           */

/* The types of the typed RMA routines: name, C type, MPI type (what the
 * buffer checks hold both buffers to; size_t and ptrdiff_t are 64-bit). */
#define RMA_TYPES(X)                                                                               \
    X(char, char, MPI_CHAR)                                                                        \
    X(short, short, MPI_SHORT)                                                                     \
    X(int, int, MPI_INT)                                                                           \
    X(long, long, MPI_LONG)                                                                        \
    X(float, float, MPI_FLOAT)                                                                     \
    X(double, double, MPI_DOUBLE)                                                                  \
    X(longlong, long long, MPI_LONG_LONG)                                                          \
    X(schar, signed char, MPI_SIGNED_CHAR)                                                         \
    X(uchar, unsigned char, MPI_UNSIGNED_CHAR)                                                     \
    X(ushort, unsigned short, MPI_UNSIGNED_SHORT)                                                  \
    X(uint, unsigned int, MPI_UNSIGNED)                                                            \
    X(ulong, unsigned long, MPI_UNSIGNED_LONG)                                                     \
    X(ulonglong, unsigned long long, MPI_UNSIGNED_LONG_LONG)                                       \
    X(longdouble, long double, MPI_LONG_DOUBLE)                                                    \
    X(int8, int8_t, MPI_INT8_T)                                                                    \
    X(int16, int16_t, MPI_INT16_T)                                                                 \
    X(int32, int32_t, MPI_INT32_T)                                                                 \
    X(int64, int64_t, MPI_INT64_T)                                                                 \
    X(uint8, uint8_t, MPI_UINT8_T)                                                                 \
    X(uint16, uint16_t, MPI_UINT16_T)                                                              \
    X(uint32, uint32_t, MPI_UINT32_T)                                                              \
    X(uint64, uint64_t, MPI_UINT64_T)                                                              \
    X(size, size_t, MPI_UINT64_T)                                                                  \
    X(ptrdiff, ptrdiff_t, MPI_AINT)

#define TYPED_RMA(N, T, M)                                                                         \
    void shmem_##N##_put(T *target, const T *source, size_t len, int pe) {                         \
        ENTER("shmem_" #N "_put");                                                                 \
        sim_shmem_xfer(false, target, source, sizeof(T), len, 1, 1, M, pe, 0);                     \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_##N##_put_nbi(T *target, const T *source, size_t len, int pe) {                     \
        ENTER("shmem_" #N "_put_nbi");                                                             \
        sim_shmem_xfer(false, target, source, sizeof(T), len, 1, 1, M, pe, SIM_XFER_NBI);          \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_##N##_get(T *target, const T *source, size_t len, int pe) {                         \
        ENTER("shmem_" #N "_get");                                                                 \
        sim_shmem_xfer(true, target, source, sizeof(T), len, 1, 1, M, pe, 0);                      \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_##N##_get_nbi(T *target, const T *source, size_t len, int pe) {                     \
        ENTER("shmem_" #N "_get_nbi");                                                             \
        sim_shmem_xfer(true, target, source, sizeof(T), len, 1, 1, M, pe, SIM_XFER_NBI);           \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_##N##_iput(T *target, const T *source, ptrdiff_t tst, ptrdiff_t sst, size_t len,    \
                          int pe) {                                                                \
        ENTER("shmem_" #N "_iput");                                                                \
        sim_shmem_xfer(false, target, source, sizeof(T), len, tst, sst, M, pe, 0);                 \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_##N##_iget(T *target, const T *source, ptrdiff_t tst, ptrdiff_t sst, size_t len,    \
                          int pe) {                                                                \
        ENTER("shmem_" #N "_iget");                                                                \
        sim_shmem_xfer(true, target, source, sizeof(T), len, tst, sst, M, pe, 0);                  \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_##N##_p(T *addr, T value, int pe) {                                                 \
        ENTER("shmem_" #N "_p");                                                                   \
        sim_shmem_xfer(false, addr, &value, sizeof(T), 1, 1, 1, M, pe, SIM_XFER_VALUE);            \
        LEAVE();                                                                                   \
    }                                                                                              \
    T shmem_##N##_g(const T *addr, int pe) {                                                       \
        ENTER("shmem_" #N "_g");                                                                   \
        T v;                                                                                       \
        sim_shmem_xfer(true, &v, addr, sizeof(T), 1, 1, 1, M, pe, SIM_XFER_VALUE);                 \
        LEAVE();                                                                                   \
        return v;                                                                                  \
    }
RMA_TYPES(TYPED_RMA)

/* The sized routines: suffix, element bytes. */
#define SIZED_RMA(S, B)                                                                            \
    void shmem_put##S(void *target, const void *source, size_t len, int pe) {                      \
        ENTER("shmem_put" #S);                                                                     \
        sim_shmem_xfer(false, target, source, (B), len, 1, 1, MPI_BYTE, pe, 0);                    \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_put##S##_nbi(void *target, const void *source, size_t len, int pe) {                \
        ENTER("shmem_put" #S "_nbi");                                                              \
        sim_shmem_xfer(false, target, source, (B), len, 1, 1, MPI_BYTE, pe, SIM_XFER_NBI);         \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_get##S(void *target, const void *source, size_t len, int pe) {                      \
        ENTER("shmem_get" #S);                                                                     \
        sim_shmem_xfer(true, target, source, (B), len, 1, 1, MPI_BYTE, pe, 0);                     \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_get##S##_nbi(void *target, const void *source, size_t len, int pe) {                \
        ENTER("shmem_get" #S "_nbi");                                                              \
        sim_shmem_xfer(true, target, source, (B), len, 1, 1, MPI_BYTE, pe, SIM_XFER_NBI);          \
        LEAVE();                                                                                   \
    }
SIZED_RMA(8, 1)
SIZED_RMA(16, 2)
SIZED_RMA(32, 4)
SIZED_RMA(64, 8)
SIZED_RMA(128, 16)
SIZED_RMA(mem, 1)

#define STRIDED_RMA(S, B)                                                                          \
    void shmem_iput##S(void *target, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t len, \
                       int pe) {                                                                   \
        ENTER("shmem_iput" #S);                                                                    \
        sim_shmem_xfer(false, target, source, (B), len, tst, sst, MPI_BYTE, pe, 0);                \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_iget##S(void *target, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t len, \
                       int pe) {                                                                   \
        ENTER("shmem_iget" #S);                                                                    \
        sim_shmem_xfer(true, target, source, (B), len, tst, sst, MPI_BYTE, pe, 0);                 \
        LEAVE();                                                                                   \
    }
STRIDED_RMA(8, 1)
STRIDED_RMA(16, 2)
STRIDED_RMA(32, 4)
STRIDED_RMA(64, 8)
STRIDED_RMA(128, 16)

/* ---------------------------------------------------------------------- */
/* Atomics                                                                 */

/* Atomic types: name, C type, MPI type (which atomics are atomic with each
 * other: those of one type). */
#define AMO_FETCH_SET_SWAP_TYPES(X)                                                                \
    AMO_STANDARD_TYPES(X)                                                                          \
    X(float, float, MPI_FLOAT)                                                                     \
    X(double, double, MPI_DOUBLE)
#define AMO_STANDARD_TYPES(X)                                                                      \
    X(int, int, MPI_INT)                                                                           \
    X(long, long, MPI_LONG)                                                                        \
    X(longlong, long long, MPI_LONG_LONG)                                                          \
    X(uint, unsigned int, MPI_UNSIGNED)                                                            \
    X(ulong, unsigned long, MPI_UNSIGNED_LONG)                                                     \
    X(ulonglong, unsigned long long, MPI_UNSIGNED_LONG_LONG)
#define AMO_BITWISE_TYPES(X)                                                                       \
    AMO_STANDARD_TYPES(X)                                                                          \
    X(int32, int32_t, MPI_INT32_T)                                                                 \
    X(int64, int64_t, MPI_INT64_T)                                                                 \
    X(uint32, uint32_t, MPI_UINT32_T)                                                              \
    X(uint64, uint64_t, MPI_UINT64_T)
/* The deprecated names (shmem_int_fadd, ...) of OpenSHMEM 1.3. */
#define AMO_OLD_FETCH_SET_SWAP_TYPES(X)                                                            \
    AMO_OLD_STANDARD_TYPES(X)                                                                      \
    X(float, float, MPI_FLOAT)                                                                     \
    X(double, double, MPI_DOUBLE)
#define AMO_OLD_STANDARD_TYPES(X)                                                                  \
    X(int, int, MPI_INT)                                                                           \
    X(long, long, MPI_LONG)                                                                        \
    X(longlong, long long, MPI_LONG_LONG)

#define FETCH_SET_SWAP(N, T, M)                                                                    \
    T shmem_##N##_atomic_fetch(const T *target, int pe) {                                          \
        ENTER("shmem_" #N "_atomic_fetch");                                                        \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_FETCH, (T *)target, NULL, NULL, &r, sizeof(T), M, pe);            \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_atomic_set(T *target, T value, int pe) {                                      \
        ENTER("shmem_" #N "_atomic_set");                                                          \
        sim_shmem_atomic(SIM_AMO_SET, target, &value, NULL, NULL, sizeof(T), M, pe);               \
        LEAVE();                                                                                   \
    }                                                                                              \
    T shmem_##N##_atomic_swap(T *target, T value, int pe) {                                        \
        ENTER("shmem_" #N "_atomic_swap");                                                         \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_SWAP, target, &value, NULL, &r, sizeof(T), M, pe);                \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }
AMO_FETCH_SET_SWAP_TYPES(FETCH_SET_SWAP)

#define OLD_FETCH_SET_SWAP(N, T, M)                                                                \
    T shmem_##N##_fetch(const T *target, int pe) {                                                 \
        ENTER("shmem_" #N "_fetch");                                                               \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_FETCH, (T *)target, NULL, NULL, &r, sizeof(T), M, pe);            \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_set(T *target, T value, int pe) {                                             \
        ENTER("shmem_" #N "_set");                                                                 \
        sim_shmem_atomic(SIM_AMO_SET, target, &value, NULL, NULL, sizeof(T), M, pe);               \
        LEAVE();                                                                                   \
    }                                                                                              \
    T shmem_##N##_swap(T *target, T value, int pe) {                                               \
        ENTER("shmem_" #N "_swap");                                                                \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_SWAP, target, &value, NULL, &r, sizeof(T), M, pe);                \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }
AMO_OLD_FETCH_SET_SWAP_TYPES(OLD_FETCH_SET_SWAP)

/* compare_swap, fetch_inc, inc, fetch_add and add, under the names given. */
#define STANDARD_AMO(N, T, M, cswap, finc, inc, fadd, add)                                         \
    T shmem_##N##_##cswap(T *target, T cond, T value, int pe) {                                    \
        ENTER("shmem_" #N "_" #cswap);                                                             \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_CSWAP, target, &value, &cond, &r, sizeof(T), M, pe);              \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    T shmem_##N##_##finc(T *target, int pe) {                                                      \
        ENTER("shmem_" #N "_" #finc);                                                              \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_FINC, target, NULL, NULL, &r, sizeof(T), M, pe);                  \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_##inc(T *target, int pe) {                                                    \
        ENTER("shmem_" #N "_" #inc);                                                               \
        sim_shmem_atomic(SIM_AMO_INC, target, NULL, NULL, NULL, sizeof(T), M, pe);                 \
        LEAVE();                                                                                   \
    }                                                                                              \
    T shmem_##N##_##fadd(T *target, T value, int pe) {                                             \
        ENTER("shmem_" #N "_" #fadd);                                                              \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_FADD, target, &value, NULL, &r, sizeof(T), M, pe);                \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_##add(T *target, T value, int pe) {                                           \
        ENTER("shmem_" #N "_" #add);                                                               \
        sim_shmem_atomic(SIM_AMO_ADD, target, &value, NULL, NULL, sizeof(T), M, pe);               \
        LEAVE();                                                                                   \
    }
#define NEW_STANDARD_AMO(N, T, M)                                                                  \
    STANDARD_AMO(N, T, M, atomic_compare_swap, atomic_fetch_inc, atomic_inc, atomic_fetch_add,     \
                 atomic_add)
#define OLD_STANDARD_AMO(N, T, M) STANDARD_AMO(N, T, M, cswap, finc, inc, fadd, add)
AMO_STANDARD_TYPES(NEW_STANDARD_AMO)
AMO_OLD_STANDARD_TYPES(OLD_STANDARD_AMO)

#define BITWISE_AMO(N, T, M, name, FOP, OP)                                                        \
    T shmem_##N##_atomic_fetch_##name(T *target, T value, int pe) {                                \
        ENTER("shmem_" #N "_atomic_fetch_" #name);                                                 \
        T r;                                                                                       \
        sim_shmem_atomic(FOP, target, &value, NULL, &r, sizeof(T), M, pe);                         \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_atomic_##name(T *target, T value, int pe) {                                   \
        ENTER("shmem_" #N "_atomic_" #name);                                                       \
        sim_shmem_atomic(OP, target, &value, NULL, NULL, sizeof(T), M, pe);                        \
        LEAVE();                                                                                   \
    }
#define BITWISE_AMOS(N, T, M)                                                                      \
    BITWISE_AMO(N, T, M, and, SIM_AMO_FAND, SIM_AMO_AND)                                           \
    BITWISE_AMO(N, T, M, or, SIM_AMO_FOR, SIM_AMO_OR)                                              \
    BITWISE_AMO(N, T, M, xor, SIM_AMO_FXOR, SIM_AMO_XOR)
AMO_BITWISE_TYPES(BITWISE_AMOS)

/* ---------------------------------------------------------------------- */
/* Contexts: the same operations on a context of the program's             */

#define CTX_USE(ctx) sim_shmem_ctx_use((const void *)(ctx), (ctx) == SHMEM_CTX_DEFAULT)

int shmem_ctx_create(long options, shmem_ctx_t *ctx) {
    ENTER("shmem_ctx_create");
    int v = sim_shmem_ctx_create(options, (void **)ctx);
    LEAVE();
    return v;
}

void shmem_ctx_destroy(shmem_ctx_t ctx) {
    ENTER("shmem_ctx_destroy");
    sim_shmem_ctx_destroy((const void *)ctx, ctx == SHMEM_CTX_DEFAULT);
    LEAVE();
}

void shmem_ctx_fence(shmem_ctx_t ctx) {
    ENTER("shmem_ctx_fence");
    CTX_USE(ctx);
    sim_shmem_fence();
    LEAVE();
}

void shmem_ctx_quiet(shmem_ctx_t ctx) {
    ENTER("shmem_ctx_quiet");
    CTX_USE(ctx);
    sim_shmem_quiet();
    LEAVE();
}

#define CTX_TYPED_RMA(N, T, M)                                                                     \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *target, const T *source, size_t len, int pe) {    \
        ENTER("shmem_ctx_" #N "_put");                                                             \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(false, target, source, sizeof(T), len, 1, 1, M, pe, 0);                     \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *target, const T *source, size_t len,          \
                                 int pe) {                                                         \
        ENTER("shmem_ctx_" #N "_put_nbi");                                                         \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(false, target, source, sizeof(T), len, 1, 1, M, pe, SIM_XFER_NBI);          \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *target, const T *source, size_t len, int pe) {    \
        ENTER("shmem_ctx_" #N "_get");                                                             \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(true, target, source, sizeof(T), len, 1, 1, M, pe, 0);                      \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *target, const T *source, size_t len,          \
                                 int pe) {                                                         \
        ENTER("shmem_ctx_" #N "_get_nbi");                                                         \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(true, target, source, sizeof(T), len, 1, 1, M, pe, SIM_XFER_NBI);           \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *target, const T *source, ptrdiff_t tst,          \
                              ptrdiff_t sst, size_t len, int pe) {                                 \
        ENTER("shmem_ctx_" #N "_iput");                                                            \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(false, target, source, sizeof(T), len, tst, sst, M, pe, 0);                 \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *target, const T *source, ptrdiff_t tst,          \
                              ptrdiff_t sst, size_t len, int pe) {                                 \
        ENTER("shmem_ctx_" #N "_iget");                                                            \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(true, target, source, sizeof(T), len, tst, sst, M, pe, 0);                  \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *addr, T value, int pe) {                            \
        ENTER("shmem_ctx_" #N "_p");                                                               \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(false, addr, &value, sizeof(T), 1, 1, 1, M, pe, SIM_XFER_VALUE);            \
        LEAVE();                                                                                   \
    }                                                                                              \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *addr, int pe) {                                  \
        ENTER("shmem_ctx_" #N "_g");                                                               \
        CTX_USE(ctx);                                                                              \
        T v;                                                                                       \
        sim_shmem_xfer(true, &v, addr, sizeof(T), 1, 1, 1, M, pe, SIM_XFER_VALUE);                 \
        LEAVE();                                                                                   \
        return v;                                                                                  \
    }
RMA_TYPES(CTX_TYPED_RMA)

#define CTX_SIZED_RMA(S, B)                                                                        \
    void shmem_ctx_put##S(shmem_ctx_t ctx, void *target, const void *source, size_t len, int pe) { \
        ENTER("shmem_ctx_put" #S);                                                                 \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(false, target, source, (B), len, 1, 1, MPI_BYTE, pe, 0);                    \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_put##S##_nbi(shmem_ctx_t ctx, void *target, const void *source, size_t len,     \
                                int pe) {                                                          \
        ENTER("shmem_ctx_put" #S "_nbi");                                                          \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(false, target, source, (B), len, 1, 1, MPI_BYTE, pe, SIM_XFER_NBI);         \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_get##S(shmem_ctx_t ctx, void *target, const void *source, size_t len, int pe) { \
        ENTER("shmem_ctx_get" #S);                                                                 \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(true, target, source, (B), len, 1, 1, MPI_BYTE, pe, 0);                     \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_get##S##_nbi(shmem_ctx_t ctx, void *target, const void *source, size_t len,     \
                                int pe) {                                                          \
        ENTER("shmem_ctx_get" #S "_nbi");                                                          \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(true, target, source, (B), len, 1, 1, MPI_BYTE, pe, SIM_XFER_NBI);          \
        LEAVE();                                                                                   \
    }
CTX_SIZED_RMA(8, 1)
CTX_SIZED_RMA(16, 2)
CTX_SIZED_RMA(32, 4)
CTX_SIZED_RMA(64, 8)
CTX_SIZED_RMA(128, 16)
CTX_SIZED_RMA(mem, 1)

#define CTX_STRIDED_RMA(S, B)                                                                      \
    void shmem_ctx_iput##S(shmem_ctx_t ctx, void *target, const void *source, ptrdiff_t tst,       \
                           ptrdiff_t sst, size_t len, int pe) {                                    \
        ENTER("shmem_ctx_iput" #S);                                                                \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(false, target, source, (B), len, tst, sst, MPI_BYTE, pe, 0);                \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_ctx_iget##S(shmem_ctx_t ctx, void *target, const void *source, ptrdiff_t tst,       \
                           ptrdiff_t sst, size_t len, int pe) {                                    \
        ENTER("shmem_ctx_iget" #S);                                                                \
        CTX_USE(ctx);                                                                              \
        sim_shmem_xfer(true, target, source, (B), len, tst, sst, MPI_BYTE, pe, 0);                 \
        LEAVE();                                                                                   \
    }
CTX_STRIDED_RMA(8, 1)
CTX_STRIDED_RMA(16, 2)
CTX_STRIDED_RMA(32, 4)
CTX_STRIDED_RMA(64, 8)
CTX_STRIDED_RMA(128, 16)

#define CTX_FETCH_SET_SWAP(N, T, M)                                                                \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *target, int pe) {                     \
        ENTER("shmem_ctx_" #N "_atomic_fetch");                                                    \
        CTX_USE(ctx);                                                                              \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_FETCH, (T *)target, NULL, NULL, &r, sizeof(T), M, pe);            \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *target, T value, int pe) {                 \
        ENTER("shmem_ctx_" #N "_atomic_set");                                                      \
        CTX_USE(ctx);                                                                              \
        sim_shmem_atomic(SIM_AMO_SET, target, &value, NULL, NULL, sizeof(T), M, pe);               \
        LEAVE();                                                                                   \
    }                                                                                              \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *target, T value, int pe) {                   \
        ENTER("shmem_ctx_" #N "_atomic_swap");                                                     \
        CTX_USE(ctx);                                                                              \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_SWAP, target, &value, NULL, &r, sizeof(T), M, pe);                \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }
AMO_FETCH_SET_SWAP_TYPES(CTX_FETCH_SET_SWAP)

#define CTX_STANDARD_AMO(N, T, M)                                                                  \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *target, T cond, T value, int pe) {   \
        ENTER("shmem_ctx_" #N "_atomic_compare_swap");                                             \
        CTX_USE(ctx);                                                                              \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_CSWAP, target, &value, &cond, &r, sizeof(T), M, pe);              \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *target, int pe) {                       \
        ENTER("shmem_ctx_" #N "_atomic_fetch_inc");                                                \
        CTX_USE(ctx);                                                                              \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_FINC, target, NULL, NULL, &r, sizeof(T), M, pe);                  \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *target, int pe) {                          \
        ENTER("shmem_ctx_" #N "_atomic_inc");                                                      \
        CTX_USE(ctx);                                                                              \
        sim_shmem_atomic(SIM_AMO_INC, target, NULL, NULL, NULL, sizeof(T), M, pe);                 \
        LEAVE();                                                                                   \
    }                                                                                              \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *target, T value, int pe) {              \
        ENTER("shmem_ctx_" #N "_atomic_fetch_add");                                                \
        CTX_USE(ctx);                                                                              \
        T r;                                                                                       \
        sim_shmem_atomic(SIM_AMO_FADD, target, &value, NULL, &r, sizeof(T), M, pe);                \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *target, T value, int pe) {                 \
        ENTER("shmem_ctx_" #N "_atomic_add");                                                      \
        CTX_USE(ctx);                                                                              \
        sim_shmem_atomic(SIM_AMO_ADD, target, &value, NULL, NULL, sizeof(T), M, pe);               \
        LEAVE();                                                                                   \
    }
AMO_STANDARD_TYPES(CTX_STANDARD_AMO)

#define CTX_BITWISE_AMO(N, T, M, name, FOP, OP)                                                    \
    T shmem_ctx_##N##_atomic_fetch_##name(shmem_ctx_t ctx, T *target, T value, int pe) {           \
        ENTER("shmem_ctx_" #N "_atomic_fetch_" #name);                                             \
        CTX_USE(ctx);                                                                              \
        T r;                                                                                       \
        sim_shmem_atomic(FOP, target, &value, NULL, &r, sizeof(T), M, pe);                         \
        LEAVE();                                                                                   \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_##name(shmem_ctx_t ctx, T *target, T value, int pe) {              \
        ENTER("shmem_ctx_" #N "_atomic_" #name);                                                   \
        CTX_USE(ctx);                                                                              \
        sim_shmem_atomic(OP, target, &value, NULL, NULL, sizeof(T), M, pe);                        \
        LEAVE();                                                                                   \
    }
#define CTX_BITWISE_AMOS(N, T, M)                                                                  \
    CTX_BITWISE_AMO(N, T, M, and, SIM_AMO_FAND, SIM_AMO_AND)                                       \
    CTX_BITWISE_AMO(N, T, M, or, SIM_AMO_FOR, SIM_AMO_OR)                                          \
    CTX_BITWISE_AMO(N, T, M, xor, SIM_AMO_FXOR, SIM_AMO_XOR)
AMO_BITWISE_TYPES(CTX_BITWISE_AMOS)

/* ---------------------------------------------------------------------- */
/* Ordering and synchronisation                                            */

#define SYNC(fn, call, body)                                                                       \
    void fn(void) {                                                                                \
        ENTER(call);                                                                               \
        body;                                                                                      \
        LEAVE();                                                                                   \
    }
SYNC(shmem_fence, "shmem_fence", sim_shmem_fence())
SYNC(shmem_quiet, "shmem_quiet", sim_shmem_quiet())
SYNC(shmem_barrier_all, "shmem_barrier_all", sim_shmem_barrier_all())
SYNC(shmem_sync_all, "shmem_sync_all", sim_shmem_sync_all())

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync) {
    ENTER("shmem_barrier");
    sim_shmem_barrier_set(PE_start, logPE_stride, PE_size, pSync, false);
    LEAVE();
}

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync) {
    ENTER("shmem_sync");
    sim_shmem_barrier_set(PE_start, logPE_stride, PE_size, pSync, true);
    LEAVE();
}

/* The types of shmem_wait_until and shmem_test: name, C type, kind. */
#define WAIT_TYPES(X)                                                                              \
    X(short, short, SIM_SHMEM_SIGNED)                                                              \
    X(int, int, SIM_SHMEM_SIGNED)                                                                  \
    X(long, long, SIM_SHMEM_SIGNED)                                                                \
    X(longlong, long long, SIM_SHMEM_SIGNED)                                                       \
    X(ushort, unsigned short, SIM_SHMEM_UNSIGNED)                                                  \
    X(uint, unsigned int, SIM_SHMEM_UNSIGNED)                                                      \
    X(ulong, unsigned long, SIM_SHMEM_UNSIGNED)                                                    \
    X(ulonglong, unsigned long long, SIM_SHMEM_UNSIGNED)                                           \
    X(int32, int32_t, SIM_SHMEM_SIGNED)                                                            \
    X(int64, int64_t, SIM_SHMEM_SIGNED)                                                            \
    X(uint32, uint32_t, SIM_SHMEM_UNSIGNED)                                                        \
    X(uint64, uint64_t, SIM_SHMEM_UNSIGNED)                                                        \
    X(size, size_t, SIM_SHMEM_UNSIGNED)                                                            \
    X(ptrdiff, ptrdiff_t, SIM_SHMEM_SIGNED)

#define WAIT_TEST(N, T, K)                                                                         \
    void shmem_##N##_wait_until(volatile T *ivar, int cmp, T value) {                              \
        ENTER("shmem_" #N "_wait_until");                                                          \
        sim_shmem_wait(ivar, sizeof(T), K, cmp, &value, false);                                    \
        LEAVE();                                                                                   \
    }                                                                                              \
    int shmem_##N##_test(volatile T *ivar, int cmp, T value) {                                     \
        ENTER("shmem_" #N "_test");                                                                \
        int v = sim_shmem_wait(ivar, sizeof(T), K, cmp, &value, true);                             \
        LEAVE();                                                                                   \
        return v;                                                                                  \
    }
WAIT_TYPES(WAIT_TEST)

/* shmem_wait: until the value differs (deprecated in 1.4). */
#define WAIT_NE(fn, call, T)                                                                       \
    void fn(volatile T *ivar, T value) {                                                           \
        ENTER(call);                                                                               \
        sim_shmem_wait(ivar, sizeof(T), SIM_SHMEM_SIGNED, SHMEM_CMP_NE, &value, false);            \
        LEAVE();                                                                                   \
    }
WAIT_NE(shmem_short_wait, "shmem_short_wait", short)
WAIT_NE(shmem_int_wait, "shmem_int_wait", int)
WAIT_NE(shmem_long_wait, "shmem_long_wait", long)
WAIT_NE(shmem_longlong_wait, "shmem_longlong_wait", long long)
WAIT_NE(shmem_wait, "shmem_wait", long)

/* The generic shmem_wait_until of the header is a macro of the same name:
 * the parentheses keep it from expanding here. */
void(shmem_wait_until)(volatile long *ivar, int cmp, long value) {
    ENTER("shmem_wait_until");
    sim_shmem_wait(ivar, sizeof(long), SIM_SHMEM_SIGNED, cmp, &value, false);
    LEAVE();
}

void shmem_set_lock(volatile long *lock) {
    ENTER("shmem_set_lock");
    sim_shmem_set_lock(lock);
    LEAVE();
}

void shmem_clear_lock(volatile long *lock) {
    ENTER("shmem_clear_lock");
    sim_shmem_clear_lock(lock);
    LEAVE();
}

int shmem_test_lock(volatile long *lock) {
    ENTER("shmem_test_lock");
    int v = sim_shmem_test_lock(lock);
    LEAVE();
    return v;
}

/* ---------------------------------------------------------------------- */
/* Collectives                                                             */

#define BROADCAST(S, B)                                                                            \
    void shmem_broadcast##S(void *target, const void *source, size_t nlong, int PE_root,           \
                            int PE_start, int logPE_stride, int PE_size, long *pSync) {            \
        ENTER("shmem_broadcast" #S);                                                               \
        sim_shmem_broadcast(target, source, nlong, (B), PE_root, PE_start, logPE_stride, PE_size,  \
                            pSync);                                                                \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_fcollect##S(void *target, const void *source, size_t nlong, int PE_start,           \
                           int logPE_stride, int PE_size, long *pSync) {                           \
        ENTER("shmem_fcollect" #S);                                                                \
        sim_shmem_fcollect(target, source, nlong, (B), PE_start, logPE_stride, PE_size, pSync);    \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_alltoall##S(void *target, const void *source, size_t nelems, int PE_start,          \
                           int logPE_stride, int PE_size, long *pSync) {                           \
        ENTER("shmem_alltoall" #S);                                                                \
        sim_shmem_alltoall(target, source, nelems, (B), PE_start, logPE_stride, PE_size, pSync);   \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_collect##S(void *target, const void *source, size_t nlong, int PE_start,            \
                          int logPE_stride, int PE_size, long *pSync) {                            \
        ENTER("shmem_collect" #S);                                                                 \
        sim_shmem_collect(target, source, nlong, (B), PE_start, logPE_stride, PE_size, pSync);     \
        LEAVE();                                                                                   \
    }                                                                                              \
    void shmem_alltoalls##S(void *target, const void *source, ptrdiff_t dst, ptrdiff_t sst,        \
                            size_t nelems, int PE_start, int logPE_stride, int PE_size,            \
                            long *pSync) {                                                         \
        ENTER("shmem_alltoalls" #S);                                                               \
        sim_shmem_alltoalls(target, source, dst, sst, nelems, (B), PE_start, logPE_stride,         \
                            PE_size, pSync);                                                       \
        LEAVE();                                                                                   \
    }
BROADCAST(32, 4)
BROADCAST(64, 8)

#define REDUCE(N, T, M, name, OP)                                                                  \
    void shmem_##N##_##name##_to_all(T *target, const T *source, int nreduce, int PE_start,        \
                                     int logPE_stride, int PE_size, T *pWrk, long *pSync) {        \
        ENTER("shmem_" #N "_" #name "_to_all");                                                    \
        sim_shmem_reduce(target, source, nreduce, M, OP, PE_start, logPE_stride, PE_size, pWrk,    \
                         pSync);                                                                   \
        LEAVE();                                                                                   \
    }
#define REDUCE_BITWISE(N, T, M)                                                                    \
    REDUCE(N, T, M, and, MPI_BAND)                                                                 \
    REDUCE(N, T, M, or, MPI_BOR)                                                                   \
    REDUCE(N, T, M, xor, MPI_BXOR)
#define REDUCE_MINMAX(N, T, M)                                                                     \
    REDUCE(N, T, M, max, MPI_MAX)                                                                  \
    REDUCE(N, T, M, min, MPI_MIN)
#define REDUCE_ARITH(N, T, M)                                                                      \
    REDUCE(N, T, M, sum, MPI_SUM)                                                                  \
    REDUCE(N, T, M, prod, MPI_PROD)
#define INTEGER_REDUCE_TYPES(X)                                                                    \
    X(short, short, MPI_SHORT)                                                                     \
    X(int, int, MPI_INT)                                                                           \
    X(long, long, MPI_LONG)                                                                        \
    X(longlong, long long, MPI_LONG_LONG)
#define REAL_REDUCE_TYPES(X)                                                                       \
    INTEGER_REDUCE_TYPES(X)                                                                        \
    X(float, float, MPI_FLOAT)                                                                     \
    X(double, double, MPI_DOUBLE)                                                                  \
    X(longdouble, long double, MPI_LONG_DOUBLE)
#define COMPLEX_REDUCE_TYPES(X)                                                                    \
    X(complexf, OSHMEM_COMPLEX_TYPE(float), MPI_C_FLOAT_COMPLEX)                                   \
    X(complexd, OSHMEM_COMPLEX_TYPE(double), MPI_C_DOUBLE_COMPLEX)
INTEGER_REDUCE_TYPES(REDUCE_BITWISE)
REAL_REDUCE_TYPES(REDUCE_MINMAX)
REAL_REDUCE_TYPES(REDUCE_ARITH)
COMPLEX_REDUCE_TYPES(REDUCE_ARITH)
