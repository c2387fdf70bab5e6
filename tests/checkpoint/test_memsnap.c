/*
 * test_memsnap.c - in-process snapshots: what comes back after a restore.
 *
 * What a test learns between a snapshot and its restore is kept in shared
 * memory, which snapshots leave alone: everything else is put back.
 */
#include <CUnit/Basic.h>
#include <fcntl.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checkpoint/memsnap.h"
#include "tests/skip.h"

typedef struct notes {
    int taken;     /* how often a fresh snapshot's path ran */
    int fd;        /* a descriptor opened after the snapshot */
    int resumed_b; /* the inner snapshot came back */
    int shared_ok; /* test_shared_pages: what each inner restore gave back */
} notes;

static notes *g_notes;
static int g_counter = 5;         /* .data */
static char g_big[256 * 1024];    /* .bss, large enough to be scanned page by page */
static const char *g_unavailable; /* a sanitizer or valgrind build */

static int setup(void) {
    g_notes =
        mmap(NULL, sizeof *g_notes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (g_notes == MAP_FAILED)
        return 1;
    g_unavailable = ckpt_mem_unavailable();
    ckpt_mem_prepare();
    char *err = NULL;
    bool ok = ckpt_mem_init(&err);
    if (g_unavailable) { /* must refuse, saying why */
        bool said = !ok && err && strstr(err, "not available");
        g_free(err);
        return said ? 0 : 1;
    }
    g_free(err);
    return ok ? 0 : 1;
}

/* Globals, the heap, the stack, a page first touched after the snapshot,
 * the program break and a descriptor opened since all come back. */
static void test_restore_puts_back(void) {
    char *heap = malloc(64);
    strcpy(heap, "before");
    volatile int local = 11;
    g_big[100 * 1024] = 7;
    void *brk_before = sbrk(0);
    memset(g_notes, 0, sizeof *g_notes);
    ckpt_mem_result r = ckpt_mem_take();
    if (r == CKPT_MEM_TAKEN) { /* no assertion here: it would be undone */
        g_notes->taken++;
        g_counter = 99;
        strcpy(heap, "after!");
        local = 12;
        g_big[100 * 1024] = 8;
        g_big[200 * 1024] = 9; /* a page the snapshot did not have */
        char *more = malloc(1 << 20);
        more[0] = 1;
        g_notes->fd = open("/dev/null", O_RDONLY);
        ckpt_mem_restore();
    }
    CU_ASSERT_EQUAL(r, CKPT_MEM_RESUMED);
    CU_ASSERT_EQUAL(g_notes->taken, 1);
    CU_ASSERT_EQUAL(g_counter, 5);
    CU_ASSERT_STRING_EQUAL(heap, "before");
    CU_ASSERT_EQUAL(local, 11);
    CU_ASSERT_EQUAL(g_big[100 * 1024], 7);
    CU_ASSERT_EQUAL(g_big[200 * 1024], 0);
    CU_ASSERT_PTR_EQUAL(sbrk(0), brk_before);
    CU_ASSERT_TRUE(g_notes->fd >= 0);
    CU_ASSERT_EQUAL(fcntl(g_notes->fd, F_GETFD), -1); /* closed by the restore */
    CU_ASSERT_EQUAL(ckpt_mem_depth(), 0);
    free(heap);
}

/* Snapshots stack: the newest comes back first, then the one below. */
static void test_nested(void) {
    memset(g_notes, 0, sizeof *g_notes);
    g_counter = 0;
    ckpt_mem_result a = ckpt_mem_take();
    if (a == CKPT_MEM_TAKEN) {
        g_counter = 1;
        ckpt_mem_result b = ckpt_mem_take();
        if (b == CKPT_MEM_TAKEN) {
            g_counter = 2;
            ckpt_mem_restore(); /* back to b with g_counter == 1 */
        }
        g_notes->resumed_b = (b == CKPT_MEM_RESUMED && g_counter == 1 && ckpt_mem_depth() == 1);
        g_counter = 3;
        ckpt_mem_restore(); /* back to a with g_counter == 0 */
    }
    CU_ASSERT_EQUAL(a, CKPT_MEM_RESUMED);
    CU_ASSERT_TRUE(g_notes->resumed_b);
    CU_ASSERT_EQUAL(g_counter, 0);
    CU_ASSERT_EQUAL(ckpt_mem_depth(), 0);
}

/* A page that did not change since the snapshot below is kept as a pointer
 * to that snapshot's copy: each restore still gives back the page as it was
 * at its own snapshot, however the pages changed above and below. */
static void test_shared_pages(void) {
    memset(g_notes, 0, sizeof *g_notes);
    char *p = g_big + 8 * 1024, *q = g_big + 48 * 1024, *r = g_big + 96 * 1024;
    *p = 1, *q = 2, *r = 3;
    ckpt_mem_result a = ckpt_mem_take();
    if (a == CKPT_MEM_TAKEN) {
        *q = 20; /* p and r as in a */
        ckpt_mem_result b = ckpt_mem_take();
        if (b == CKPT_MEM_TAKEN) {
            *p = 100; /* q as in b, r as in a */
            ckpt_mem_result c = ckpt_mem_take();
            if (c == CKPT_MEM_TAKEN) {
                *p = 7, *q = 7, *r = 7;
                ckpt_mem_restore();
            }
            g_notes->shared_ok += c == CKPT_MEM_RESUMED && *p == 100 && *q == 20 && *r == 3;
            *p = 8, *q = 8, *r = 8;
            ckpt_mem_restore();
        }
        g_notes->shared_ok += b == CKPT_MEM_RESUMED && *p == 1 && *q == 20 && *r == 3;
        *p = 9, *q = 9, *r = 9;
        ckpt_mem_restore();
    }
    CU_ASSERT_EQUAL(a, CKPT_MEM_RESUMED);
    CU_ASSERT_EQUAL(g_notes->shared_ok, 2);
    CU_ASSERT_EQUAL(*p, 1);
    CU_ASSERT_EQUAL(*q, 2);
    CU_ASSERT_EQUAL(*r, 3);
    CU_ASSERT_EQUAL(ckpt_mem_depth(), 0);
}

/* Memory mapped after a snapshot cannot be put back: the restore says so
 * and ends the process with status 4 instead of going on unsound. */
static void test_mapping_change_refused(void) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 2);
        if (ckpt_mem_take() == CKPT_MEM_TAKEN) {
            void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            (void)p;
            ckpt_mem_restore();
        }
        _exit(0); /* resumed: wrong */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(WIFEXITED(status));
    CU_ASSERT_EQUAL(WEXITSTATUS(status), 4);
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("memsnap", setup, NULL);
    /* Without snapshots (a sanitizer or valgrind) setup checks only that
     * ckpt_mem_init refuses, saying why; every test needs snapshots. */
    const char *why = ckpt_mem_unavailable();
    test_add_unless(s, "a restore puts memory, the break and descriptors back",
                    test_restore_puts_back, why);
    test_add_unless(s, "snapshots stack", test_nested, why);
    test_add_unless(s, "pages unchanged since the snapshot below come back", test_shared_pages,
                    why);
    test_add_unless(s, "a mapping made after a snapshot stops the restore",
                    test_mapping_change_refused, why);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)(CU_get_number_of_failures() + CU_get_number_of_suites_failed());
    CU_cleanup_registry();
    return failed != 0;
}
