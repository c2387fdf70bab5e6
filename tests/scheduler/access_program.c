/*
 * access_program.c - loads and stores of every kind, to memory the test
 * tracks and to memory it does not (test_access_program.c builds it with
 * ordexcc, with and without the instrumentation, and runs it as ranks).
 *
 * Before each access to tracked memory, EXPECT tells the test what it must
 * see: address, size, read or write, and the number of the marker comment
 * "@N" on the line of the access, whose line the test looks up in this
 * file.  The exit status is the number of wrong values the program read
 * (atomics must work); accesses to untracked memory are not announced.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The test's (exported from the test binary). */
void test_mark(const void *p, size_t n);
void test_unmark(const void *p, size_t n);
void test_expect(const void *p, size_t n, int is_write, int marker);
/* Calls fn(p) as ordex runs a program's callback inside an MPI call. */
void test_call_as_ordex(void (*fn)(int *), int *p);

#define EXPECT(p, n, w, marker) test_expect((p), (n), (w), (marker))

static int g_bad;
static int g_global[4];

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            g_bad++;                                                                               \
    } while (0)

/* Kept short: clang-format must leave each marked access on one line. */
#define SC __ATOMIC_SEQ_CST

struct blob {
    char c[24];
};

static void poke(int *p) {
    p[0] = 99; /* as a callback that ordex runs: never reported */
}

int main(void) {
    char *buf = malloc(256);   /* [64, 128) tracked */
    char *other = malloc(256); /* never tracked */
    char plain[64];            /* never tracked */
    if (!buf || !other)
        return 100;
    memset(buf, 0, 256);
    memset(other, 1, 256);
    memset(plain, 2, sizeof plain);
    test_mark(buf + 64, 64);
    int *t = (int *)(buf + 64);

    /* Plain stores and loads of each size, and their neighbours. */
    EXPECT(t, 4, 1, 1);
    t[0] = 7; /* @1 */
    EXPECT(t, 4, 0, 2);
    int x = t[0]; /* @2 */
    CHECK(x == 7);
    other[3] = 5;  /* untracked, maybe the same page */
    x += buf[0];   /* untracked bytes of the same block */
    x += buf[128]; /* the first byte after the tracked ones */
    EXPECT(buf + 72, 1, 1, 3);
    buf[72] = 1; /* @3 */
    EXPECT(buf + 74, 2, 0, 4);
    x += *(short *)(buf + 74); /* @4 */
    EXPECT(buf + 80, 8, 1, 5);
    *(long *)(buf + 80) = 1234567890123L; /* @5 */
    EXPECT(buf + 96, 16, 1, 6);
    *(__int128 *)(buf + 96) = 42; /* @6 */
    EXPECT(buf + 96, 16, 0, 7);
    CHECK(*(__int128 *)(buf + 96) == 42); /* @7 */

    /* An access that starts before the tracked bytes: only its tracked
     * part is reported. */
    EXPECT(buf + 64, 4, 1, 8);
    *(long *)(buf + 60) = 0; /* @8 */

    /* An aggregate (a range). */
    struct blob b;
    memset(&b, 3, sizeof b);
    EXPECT(buf + 65, 24, 1, 9);
    *(struct blob *)(buf + 65) = b; /* @9 */

    /* memcpy, memmove, memset: the source read, then the destination. */
    EXPECT(buf + 64, 16, 1, 10);
    memcpy(buf + 64, plain, 16); /* @10 */
    EXPECT(buf + 64, 16, 0, 11);
    memcpy(plain, buf + 64, 16); /* @11 */
    EXPECT(buf + 72, 16, 0, 12);
    EXPECT(buf + 64, 16, 1, 12);
    memmove(buf + 64, buf + 72, 16); /* @12 */
    EXPECT(buf + 64, 32, 1, 13);
    memset(buf + 32, 0, 64); /* @13 */
    EXPECT(buf + 64, 40, 0, 14);
    memcpy(plain, buf + 56, 48); /* @14 */
    CHECK(plain[8] == 0 && plain[39] == 0 && plain[40] == 42);
    memcpy(other, plain, 64); /* untracked both ways */
    memset(other + 64, 0, 64);

    /* Atomics: performed, and reported (a read-modify-write as a write). */
    EXPECT(t, 4, 1, 15);
    __atomic_store_n(t, 10, __ATOMIC_SEQ_CST); /* @15 */
    EXPECT(t, 4, 1, 16);
    CHECK(__atomic_fetch_add(t, 5, __ATOMIC_SEQ_CST) == 10); /* @16 */
    EXPECT(t, 4, 0, 17);
    CHECK(__atomic_load_n(t, __ATOMIC_ACQUIRE) == 15); /* @17 */
    int want = 15;
    EXPECT(t, 4, 1, 18);
    CHECK(__atomic_compare_exchange_n(t, &want, 20, 0, SC, SC)); /* @18 */
    EXPECT(t, 4, 1, 19);
    CHECK(!__atomic_compare_exchange_n(t, &want, 30, 1, SC, __ATOMIC_RELAXED)); /* @19 */
    CHECK(want == 20);
    EXPECT(t, 4, 1, 20);
    CHECK(__sync_val_compare_and_swap(t, 20, 21) == 20); /* @20 */
    EXPECT(buf + 72, 1, 1, 21);
    CHECK(__atomic_exchange_n(buf + 72, 9, __ATOMIC_SEQ_CST) == 0); /* @21 */
    short *s = (short *)(buf + 74);
    EXPECT(s, 2, 1, 22);
    *s = 6; /* @22 */
    EXPECT(s, 2, 1, 23);
    CHECK(__atomic_fetch_or(s, 1, __ATOMIC_SEQ_CST) == 6); /* @23 */
    EXPECT(s, 2, 0, 24);
    CHECK(*s == 7); /* @24 */
    long *l = (long *)(buf + 80);
    EXPECT(l, 8, 1, 25);
    *l = 12; /* @25 */
    EXPECT(l, 8, 1, 26);
    CHECK(__atomic_fetch_nand(l, 10, __ATOMIC_SEQ_CST) == 12); /* @26 */
    EXPECT(l, 8, 0, 27);
    CHECK(*l == ~8L); /* @27 */
#ifdef __SANITIZE_THREAD__
    /* Without the instrumentation GCC calls libatomic for these. */
    __int128 *w = (__int128 *)(buf + 96);
    EXPECT(w, 16, 1, 28);
    *w = ((__int128)1 << 64) - 1; /* @28 */
    EXPECT(w, 16, 1, 29);
    __atomic_fetch_add(w, 1, __ATOMIC_SEQ_CST); /* @29 */
    EXPECT(w, 16, 0, 30);
    CHECK(__atomic_load_n(w, __ATOMIC_SEQ_CST) == ((__int128)1 << 64)); /* @30 */
    __int128 w_old = (__int128)1 << 64;
    EXPECT(w, 16, 1, 31);
    CHECK(__atomic_compare_exchange_n(w, &w_old, 5, 0, SC, SC)); /* @31 */
    EXPECT(w, 16, 0, 32);
    CHECK(*w == 5); /* @32 */
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    int free_int = 0; /* untracked atomics are not reported */
    __atomic_fetch_add(&free_int, 1, __ATOMIC_SEQ_CST);
    CHECK(free_int == 1);

    /* Globals of the rank's copy, and a stack array. */
    test_mark(g_global, sizeof g_global);
    EXPECT(&g_global[1], 4, 1, 33);
    g_global[1] = 3; /* @33 */
    int local[4];
    test_mark(local, sizeof local);
    EXPECT(&local[2], 4, 1, 34);
    local[2] = 1; /* @34 */
    test_unmark(local, sizeof local);
    local[3] = 2; /* no longer tracked */
    test_unmark(g_global, sizeof g_global);
    g_global[2] = 1;

    /* Marks are counted: twice marked, once unmarked, still tracked. */
    test_mark(buf + 200, 8);
    test_mark(buf + 200, 8);
    test_unmark(buf + 200, 8);
    EXPECT(buf + 200, 4, 1, 35);
    *(int *)(buf + 200) = 1; /* @35 */
    test_unmark(buf + 200, 8);
    *(int *)(buf + 204) = 1; /* no longer */

    /* errno is the program's across a report. */
    errno = 42;
    EXPECT(t + 1, 4, 1, 36);
    t[1] = 1; /* @36 */
    CHECK(errno == 42);

    /* The program's code that ordex runs on the rank's behalf. */
    test_call_as_ordex(poke, t);
    EXPECT(t, 4, 0, 37);
    CHECK(t[0] == 99); /* @37 */

    test_unmark(buf + 64, 64);
    t[0] = 1; /* untracked again */
    x += t[0];
    free(other);
    free(buf);
    CHECK(x == 8);
    return g_bad;
}
