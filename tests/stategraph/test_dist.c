/*
 * test_dist.c - the pieces a distributed exploration is made of, without
 * MPI: one visit of a state (probes and inserts), a visited table shared
 * through its memory file (what a rank's agent answers from), frames with
 * a descriptor over a socket, and outcomes gathered from another process
 * (export, import).  tests/dist_check.py runs whole explorations under
 * mpiexec.mpich.
 */
#define _GNU_SOURCE
#include <CUnit/Basic.h>
#include <glib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stategraph/dist_proto.h"
#include "stategraph/outcomes.h"
#include "stategraph/visited.h"

static ckpt_hash H(uint64_t lo, uint64_t hi) {
    ckpt_hash h = {lo, hi};
    return h;
}

/* The three ways the search visits a state: a plain state, a state with a
 * sleep set (the bare state and subsets probed, the whole set inserted),
 * a state under a bound (probes of more budget, two inserts). */
static void test_visit(void) {
    CU_ASSERT_TRUE_FATAL(sg_visited_create(1000));
    bool full = true;
    ckpt_hash a = H(11, 1), b = H(12, 2), c = H(13, 3), d = H(14, 4);
    CU_ASSERT_FALSE(sg_visited_visit(NULL, 0, &a, 1, &full, NULL)); /* new: inserted */
    CU_ASSERT_FALSE(full);
    CU_ASSERT_TRUE(sg_visited_visit(NULL, 0, &a, 1, &full, NULL)); /* seen */
    /* Probes only: nothing inserted. */
    CU_ASSERT_FALSE(sg_visited_visit(&b, 1, NULL, 0, &full, NULL));
    CU_ASSERT_FALSE(sg_visited_contains(b));
    /* A probe present: seen, and the inserts are not made. */
    ckpt_hash probes[2] = {b, a};
    int which = -2;
    CU_ASSERT_TRUE(sg_visited_visit(probes, 2, &c, 1, &full, &which));
    CU_ASSERT_EQUAL(which, 1); /* the key found: a, the second probe */
    CU_ASSERT_FALSE(sg_visited_contains(c));
    /* Not seen: every insert made; only the first insert counts as seen. */
    ckpt_hash ins[2] = {c, d};
    CU_ASSERT_FALSE(sg_visited_visit(&b, 1, ins, 2, &full, &which));
    CU_ASSERT_EQUAL(which, -1);
    CU_ASSERT_TRUE(sg_visited_contains(c));
    CU_ASSERT_TRUE(sg_visited_contains(d));
    ckpt_hash ins2[2] = {b, d}; /* d there already, b new: not seen */
    CU_ASSERT_FALSE(sg_visited_visit(NULL, 0, ins2, 2, &full, NULL));
    CU_ASSERT_TRUE(sg_visited_visit(&a, 0, ins2, 2, &full, &which));
    CU_ASSERT_EQUAL(which, 0); /* the first insert, after no probe */
    CU_ASSERT_TRUE(sg_visited_contains(b));
    CU_ASSERT_EQUAL(sg_visited_count(), 4);
    sg_visited_destroy();
}

/* A table made in a memory file: a process that maps it (as an agent
 * does, after exec) sees the states the creator inserted, and the creator
 * sees those the other inserted, also across the table's growth. */
static void test_shared_table(void) {
    int fd = -1;
    CU_ASSERT_TRUE_FATAL(sg_visited_create_fd(200000, &fd));
    CU_ASSERT_TRUE_FATAL(fd >= 0);
    bool full;
    for (uint64_t i = 1; i <= 100; i++) {
        ckpt_hash h = H(i, i * 7);
        sg_visited_visit(NULL, 0, &h, 1, &full, NULL);
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* Another mapping of the same file: the agent's view. */
        int ok = sg_visited_attach(fd);
        for (uint64_t i = 1; ok && i <= 100; i++)
            ok = sg_visited_contains(H(i, i * 7));
        for (uint64_t i = 1000; ok && i < 101000; i++) { /* grows the table */
            ckpt_hash h = H(i, i * 7);
            ok = !sg_visited_visit(NULL, 0, &h, 1, &full, NULL) && !full;
        }
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CU_ASSERT_EQUAL(sg_visited_count(), 100100);
    CU_ASSERT_TRUE(sg_visited_contains(H(50000, 350000)));
    CU_ASSERT_TRUE(sg_visited_contains(H(100, 700)));
    CU_ASSERT_FALSE(sg_visited_contains(H(200000, 1400000)));
    /* A file that holds no table is refused. */
    int other = memfd_create("not-a-table", 0);
    CU_ASSERT_TRUE(ftruncate(other, 4096) == 0);
    CU_ASSERT_FALSE(sg_visited_attach(other));
    close(other);
    close(fd);
    sg_visited_destroy();
}

/* Frames keep their boundaries, large payloads arrive whole, a descriptor
 * passed along arrives usable, and a closed peer is an error. */
static void test_frames(void) {
    int sv[2];
    CU_ASSERT_TRUE_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    int pipefd[2];
    CU_ASSERT_TRUE_FATAL(pipe(pipefd) == 0);
    size_t big = 3 << 20;
    unsigned char *data = g_malloc(big);
    for (size_t i = 0; i < big; i++)
        data[i] = (unsigned char)(i * 31);
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        bool ok = sgd_send(sv[1], SGD_VISIT, "abc", 3) && sgd_send(sv[1], SGD_ACK, NULL, 0) &&
                  sgd_send_fd(sv[1], SGD_PASS_BEGIN, "\1\0\0\0", 4, pipefd[1]) &&
                  sgd_send(sv[1], SGD_RESULT, data, big);
        _exit(ok ? 0 : 1);
    }
    close(sv[1]);
    close(pipefd[1]);
    GByteArray *m = g_byte_array_new();
    uint32_t type = 0;
    int got = -2;
    CU_ASSERT_TRUE(sgd_recv(sv[0], &type, m, &got));
    CU_ASSERT_EQUAL(type, SGD_VISIT);
    CU_ASSERT_EQUAL(m->len, 3);
    CU_ASSERT_TRUE(memcmp(m->data, "abc", 3) == 0);
    CU_ASSERT_EQUAL(got, -1);
    CU_ASSERT_TRUE(sgd_recv(sv[0], &type, m, NULL));
    CU_ASSERT_EQUAL(type, SGD_ACK);
    CU_ASSERT_EQUAL(m->len, 0);
    CU_ASSERT_TRUE(sgd_recv(sv[0], &type, m, &got));
    CU_ASSERT_EQUAL(type, SGD_PASS_BEGIN);
    CU_ASSERT_TRUE(got >= 0);
    if (got >= 0) { /* the writing end of the pipe, passed over */
        CU_ASSERT_EQUAL(write(got, "z", 1), 1);
        close(got);
        char c = 0;
        CU_ASSERT_EQUAL(read(pipefd[0], &c, 1), 1);
        CU_ASSERT_EQUAL(c, 'z');
    }
    CU_ASSERT_TRUE(sgd_recv(sv[0], &type, m, NULL));
    CU_ASSERT_EQUAL(type, SGD_RESULT);
    CU_ASSERT_EQUAL(m->len, big);
    CU_ASSERT_TRUE(m->len == big && memcmp(m->data, data, big) == 0);
    int status = 0;
    waitpid(pid, &status, 0);
    CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CU_ASSERT_FALSE(sgd_recv(sv[0], &type, m, NULL)); /* the peer is gone */
    close(sv[0]);
    close(pipefd[0]);
    g_byte_array_free(m, TRUE);
    g_free(data);
}

static sg_step step(int choice) {
    sg_step s = {0};
    s.kind = 1;
    s.dst = 0;
    s.src = 1;
    s.choice = choice;
    s.nalts = 2;
    return s;
}

/* Two processes that each saw one outcome: gathered, there are two, and a
 * pair of orderings with different outcomes shows them; a process's own
 * pair wins over one sharing a shorter prefix. */
static void test_outcomes_gathered(void) {
    /* "The other rank": one ordering, outcome X. */
    CU_ASSERT_TRUE_FATAL(sg_outcomes_create(1));
    sg_step p1[3] = {step(0), step(1), step(0)};
    CU_ASSERT_TRUE(sg_outcomes_add(0, H(1, 1), p1, 3));
    GByteArray *other = sg_outcomes_export(0);
    sg_outcomes_destroy();

    /* "Rank 0": one ordering, outcome Y, sharing the first two steps. */
    CU_ASSERT_TRUE_FATAL(sg_outcomes_create(1));
    sg_step p0[3] = {step(0), step(1), step(1)};
    CU_ASSERT_TRUE(sg_outcomes_add(0, H(2, 2), p0, 3));
    sg_pass_outcomes o;
    sg_outcomes_get(0, &o);
    CU_ASSERT_EQUAL(o.distinct, 1);
    CU_ASSERT_PTR_NULL(o.a);
    sg_pass_outcomes_clear(&o);
    sg_outcomes_import(0, other->data, other->len);
    sg_outcomes_get(0, &o);
    CU_ASSERT_EQUAL(o.distinct, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o.b);
    CU_ASSERT_EQUAL(o.prefix, 2);
    CU_ASSERT_EQUAL(o.a->len, 3);
    CU_ASSERT_EQUAL(o.b->len, 3);
    sg_pass_outcomes_clear(&o);
    /* The same outcomes again change nothing; bytes cut short are ignored. */
    sg_outcomes_import(0, other->data, other->len);
    sg_outcomes_import(0, other->data, other->len / 2);
    sg_outcomes_get(0, &o);
    CU_ASSERT_EQUAL(o.distinct, 2);
    sg_pass_outcomes_clear(&o);
    sg_outcomes_destroy();
    g_byte_array_free(other, TRUE);
}

int main(void) {
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("dist", NULL, NULL);
    CU_add_test(s, "one visit: probes and inserts", test_visit);
    CU_add_test(s, "a visited table shared through its memory file", test_shared_table);
    CU_add_test(s, "frames, large payloads and descriptors over a socket", test_frames);
    CU_add_test(s, "outcomes gathered from another process", test_outcomes_gathered);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    int failed = (int)CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
