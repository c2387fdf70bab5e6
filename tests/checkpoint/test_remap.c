/*
 * test_remap.c - private mappings made anew: the process goes on as if
 * nothing had happened.
 */
#define _GNU_SOURCE
#include <CUnit/Basic.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checkpoint/memsnap.h"
#include "checkpoint/remap.h"
#include "tests/skip.h"

static int g_counter = 5;      /* .data */
static char g_big[256 * 1024]; /* .bss */
/* A page per level of the fork chain, each first written by its level: in
 * no parent's memory. */
static char g_fresh[64][4096];
static bool g_available;

static int setup(void) {
    g_available = ckpt_mem_unavailable() == NULL;
    ckpt_remap_init();
    return 0;
}

static void fill(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 131u + seed);
}

static bool same(const unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(i * 131u + seed))
            return false;
    return true;
}

/* An unlinked temporary file of `pages` pages filled from seed. */
static int temp_file(int pages, unsigned seed) {
    char path[] = "/tmp/ordex-remap-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    unlink(path);
    unsigned char page[4096];
    fill(page, sizeof page, seed);
    for (int i = 0; i < pages; i++)
        CU_ASSERT_FATAL(write(fd, page, sizeof page) == (ssize_t)sizeof page);
    return fd;
}

/* The permissions /proc/self/maps gives the mapping holding addr. */
static char *perms_at(const void *addr) {
    char *maps = NULL, *found = NULL;
    if (!g_file_get_contents("/proc/self/maps", &maps, NULL, NULL))
        return NULL;
    char **lines = g_strsplit(maps, "\n", -1);
    for (char **l = lines; *l && !found; l++) {
        unsigned long a, b;
        char perms[8];
        if (sscanf(*l, "%lx-%lx %7s", &a, &b, perms) == 3 && (uintptr_t)addr >= a &&
            (uintptr_t)addr < b)
            found = g_strdup(perms);
    }
    g_strfreev(lines);
    g_free(maps);
    return found;
}

/* Globals, heap blocks of every size, the stack, a written page of a
 * file mapping and a read-only anonymous page keep their bytes and their
 * protection; the heap still grows and shrinks. */
static void test_bytes_kept(void) {
    enum { NBLOCKS = 64 };
    unsigned char *blocks[NBLOCKS];
    for (int i = 0; i < NBLOCKS; i++) {
        size_t n = (size_t)16 << (i % 14);
        blocks[i] = malloc(n);
        fill(blocks[i], n, (unsigned)i);
    }
    unsigned char on_stack[3000];
    fill(on_stack, sizeof on_stack, 7);
    fill((unsigned char *)g_big, sizeof g_big, 9);
    g_counter = 42;

    int fd = temp_file(4, 3);
    unsigned char *file = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    CU_ASSERT_FATAL(file != MAP_FAILED);
    fill(file + 4096, 4096, 11); /* one page written: the others are the file's */
    unsigned char *ro =
        mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(ro != MAP_FAILED);
    fill(ro, 4096, 13);
    mprotect(ro, 2 * 4096, PROT_READ);

    int made = ckpt_remap_now();
    if (!g_available) {
        CU_ASSERT_EQUAL(made, 0); /* a sanitizer or valgrind: left alone */
    } else {
        CU_ASSERT(made >= 5); /* at least the heap, .data, .bss, the file page, ro */
    }

    for (int i = 0; i < NBLOCKS; i++)
        CU_ASSERT(same(blocks[i], (size_t)16 << (i % 14), (unsigned)i));
    CU_ASSERT(same(on_stack, sizeof on_stack, 7));
    CU_ASSERT(same((unsigned char *)g_big, sizeof g_big, 9));
    CU_ASSERT_EQUAL(g_counter, 42);
    CU_ASSERT(same(file, 4096, 3));
    CU_ASSERT(same(file + 4096, 4096, 11));
    CU_ASSERT(same(file + 2 * 4096, 4096, 3));
    CU_ASSERT(same(ro, 4096, 13));
    CU_ASSERT_EQUAL(ro[4096], 0);
    char *p = perms_at(ro);
    CU_ASSERT_STRING_EQUAL(p, "r--p");
    g_free(p);
    p = perms_at(file);
    CU_ASSERT_STRING_EQUAL(p, "rw-p");
    g_free(p);

    /* The heap goes on: grow it well past its end, give it back, reuse. */
    for (int i = 0; i < NBLOCKS; i += 2) {
        size_t n = (size_t)16 << (i % 14);
        blocks[i] = realloc(blocks[i], n * 3);
        CU_ASSERT(same(blocks[i], n, (unsigned)i));
    }
    void *large[8];
    for (int i = 0; i < 8; i++)
        large[i] = calloc(1, 1 << 20);
    for (int i = 0; i < 8; i++)
        free(large[i]);
    for (int i = 0; i < NBLOCKS; i++)
        free(blocks[i]);
    char *after = g_strdup_printf("%d", g_counter);
    CU_ASSERT_STRING_EQUAL(after, "42");
    g_free(after);
    munmap(file, 4 * 4096);
    munmap(ro, 2 * 4096);
    close(fd);
}

/* A chain of forks, each child making its mappings anew when due: every
 * level sees what its parents wrote, and what it writes stays its own.
 * Pages first written by a child are copied too: they are not in the
 * parent's page tables, which a descriptor of /proc/self/pagemap opened
 * by the parent would read. */
static bool fresh_pages_kept(int level) {
    for (int i = 0; i < level; i++)
        if (g_fresh[i][100] != (char)(i + 1))
            return false;
    return true;
}

static int descend(int level, int depth, unsigned char *heap, size_t n) {
    if (level == depth)
        return 0;
    g_fresh[level][100] = (char)(level + 1);
    ckpt_remap_before_fork();
    if (!fresh_pages_kept(level + 1))
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        ckpt_remap_forked();
        bool ok = fresh_pages_kept(level + 1) && g_counter == 100 + level &&
                  same(heap, n, (unsigned)level) &&
                  same((unsigned char *)g_big, sizeof g_big, (unsigned)level);
        g_counter = 100 + level + 1;
        fill(heap, n, (unsigned)level + 1);
        fill((unsigned char *)g_big, sizeof g_big, (unsigned)level + 1);
        _exit(ok ? descend(level + 1, depth, heap, n) : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    bool mine = g_counter == 100 + level && same(heap, n, (unsigned)level) &&
                same((unsigned char *)g_big, sizeof g_big, (unsigned)level);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 && mine ? 0 : 1;
}

static void test_fork_chain(void) {
    size_t n = 100000;
    unsigned char *heap = malloc(n);
    fill(heap, n, 0);
    fill((unsigned char *)g_big, sizeof g_big, 0);
    g_counter = 100;
    CU_ASSERT_EQUAL(descend(0, 3 * CKPT_REMAP_AFTER_FORKS + 1, heap, n), 0);
    free(heap);
}

/* A private mapping of a file that ends before it: its pages past the end
 * cannot be read (SIGBUS), so it is left as it was, and the process lives. */
static void test_past_end_of_file(void) {
    int fd = temp_file(1, 5);
    unsigned char *m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    CU_ASSERT_FATAL(m != MAP_FAILED);
    fill(m, 4096, 17);
    ckpt_remap_now();
    CU_ASSERT(same(m, 4096, 17));
    munmap(m, 3 * 4096);
    close(fd);
}

/* More than 16 MiB to copy: nothing is made anew. */
static void test_too_much_to_copy(void) {
    size_t n = (size_t)20 << 20;
    unsigned char *big = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CU_ASSERT_FATAL(big != MAP_FAILED);
    memset(big, 1, n);
    CU_ASSERT_EQUAL(ckpt_remap_now(), 0);
    munmap(big, n);
    CU_ASSERT(ckpt_remap_now() > 0);
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("remap", setup, NULL);
    /* Where snapshots are unavailable (a sanitizer or valgrind) nothing is
     * ever made anew: the first test checks that, the others need it. */
    const char *why = ckpt_mem_unavailable();
    CU_add_test(s, "mappings made anew keep their bytes and protection", test_bytes_kept);
    test_add_unless(s, "a chain of forks sees its parents' bytes and keeps its own",
                    test_fork_chain, why);
    test_add_unless(s, "a file mapping past the end of its file is left as it was",
                    test_past_end_of_file, why);
    test_add_unless(s, "nothing is made anew with more than 16 MiB to copy", test_too_much_to_copy,
                    why);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)(CU_get_number_of_failures() + CU_get_number_of_suites_failed());
    CU_cleanup_registry();
    return failed != 0;
}
