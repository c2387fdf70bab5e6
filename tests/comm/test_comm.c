/*
 * test_comm.c - unit tests of simulator/comm.c: communicator constructors
 * driven by fake collectives, membership lookups, handles, group algebra,
 * Cartesian arithmetic and MPI_Dims_create.
 */
#include <CUnit/Basic.h>
#include <CUnit/CUnit.h>
#include <glib.h>
#include <mpi.h>
#include <string.h>

#include "simulator/coll.h"
#include "simulator/comm.h"
#include "simulator/handle.h"

#define DIRECT_COMM(i) SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_COMM, (i))
#define DIRECT_GROUP(i) SIM_HANDLE(SIM_HKIND_DIRECT, SIM_OBJ_GROUP, (i))

/* A collective on comm with every member arrived, as coll.c would pass it to
 * sim_comm_exec_create; out[r] receives comm rank r's new handle. */
typedef struct fake_coll {
    sim_coll c;
    MPI_Comm *out;
} fake_coll;

static fake_coll *fake_new(sim_comm *comm, sim_coll_kind kind) {
    fake_coll *f = g_new0(fake_coll, 1);
    f->c.comm = comm;
    f->c.kind = kind;
    f->c.arrived = comm->size;
    f->c.args = g_new0(sim_coll_args, comm->size);
    f->out = g_new(MPI_Comm, comm->size);
    for (int r = 0; r < comm->size; r++) {
        f->out[r] = (MPI_Comm)0x12345678; /* must be overwritten */
        f->c.args[r].newcomm = &f->out[r];
    }
    return f;
}

static void fake_free(fake_coll *f) {
    g_free(f->c.args);
    g_free(f->out);
    g_free(f);
}

/* Runs the collective and expects success. */
static void fake_exec_ok(fake_coll *f) {
    int err_rank = -1;
    char *why = NULL;
    int rc = sim_comm_exec_create(&f->c, &err_rank, &why);
    CU_ASSERT_EQUAL(rc, MPI_SUCCESS);
    if (rc != MPI_SUCCESS)
        fprintf(stderr, "unexpected error at comm rank %d: %s\n", err_rank, why);
    g_free(why);
}

/* Runs the collective, expects errclass at err_rank with `needle` in the
 * message and MPI_COMM_NULL for every member. */
static void fake_exec_err(fake_coll *f, int errclass, int err_rank, const char *needle) {
    int er = -1;
    char *why = NULL;
    int rc = sim_comm_exec_create(&f->c, &er, &why);
    CU_ASSERT_EQUAL(rc, errclass);
    CU_ASSERT_EQUAL(er, err_rank);
    CU_ASSERT_PTR_NOT_NULL(why);
    if (why && needle && !strstr(why, needle)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", why, needle);
        CU_FAIL("error message");
    }
    for (int r = 0; r < f->c.comm->size; r++)
        CU_ASSERT_EQUAL(f->out[r], MPI_COMM_NULL);
    g_free(why);
}

static sim_comm *world(void) {
    return sim_comm_get(MPI_COMM_WORLD, 0);
}

/* Splits comm with per-member colours and keys; returns the fake (caller frees). */
static fake_coll *split(sim_comm *comm, const int *colors, const int *keys) {
    fake_coll *f = fake_new(comm, SIM_COLL_COMM_SPLIT);
    for (int r = 0; r < comm->size; r++) {
        f->c.args[r].color = colors[r];
        f->c.args[r].key = keys ? keys[r] : 0;
    }
    return f;
}

static void assert_members(const sim_comm *c, int n, const int *expected) {
    CU_ASSERT_EQUAL_FATAL(c->size, n);
    for (int i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(c->members[i], expected[i]);
        CU_ASSERT_EQUAL(sim_comm_rank(c, expected[i]), i);
    }
}

static void assert_list(const int *got, int gotn, int n, const int *expected) {
    CU_ASSERT_EQUAL_FATAL(gotn, n);
    for (int i = 0; i < n; i++)
        CU_ASSERT_EQUAL(got[i], expected[i]);
}

/* ---------------------------------------------------------------------- */
/* World, self, lookups                                                    */

static void test_world_and_self(void) {
    sim_comm_init(4);
    sim_comm *w = world();
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->handle, MPI_COMM_WORLD);
    CU_ASSERT_EQUAL(w->size, 4);
    CU_ASSERT_EQUAL(w->id, 0);
    CU_ASSERT_PTR_NULL(w->rank_of); /* identity: no table */
    for (int r = 0; r < 4; r++) {
        CU_ASSERT_PTR_EQUAL(sim_comm_get(MPI_COMM_WORLD, r), w);
        CU_ASSERT_EQUAL(sim_comm_rank(w, r), r);
        sim_comm *s = sim_comm_get(MPI_COMM_SELF, r);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(s->handle, MPI_COMM_SELF);
        CU_ASSERT_EQUAL(s->size, 1);
        CU_ASSERT_EQUAL(s->id, 1 + r);
        CU_ASSERT_EQUAL(sim_comm_world(s, 0), r);
        CU_ASSERT_EQUAL(sim_comm_rank(s, r), 0);
        CU_ASSERT_EQUAL(sim_comm_rank(s, (r + 1) % 4), -1);
        CU_ASSERT_EQUAL(sim_comm_errhandler(s, r), MPI_ERRORS_ARE_FATAL);
        CU_ASSERT_EQUAL(sim_comm_errhandler(w, r), MPI_ERRORS_ARE_FATAL);
    }
    CU_ASSERT_PTR_NOT_EQUAL(sim_comm_get(MPI_COMM_SELF, 0), sim_comm_get(MPI_COMM_SELF, 1));
    CU_ASSERT_EQUAL(sim_comm_rank(w, 4), -1);
    CU_ASSERT_EQUAL(sim_comm_rank(w, -1), -1);
    CU_ASSERT_STRING_EQUAL(sim_comm_describe(w), "MPI_COMM_WORLD");
    CU_ASSERT_STRING_EQUAL(sim_comm_describe(sim_comm_get(MPI_COMM_SELF, 2)), "MPI_COMM_SELF");
    sim_comm_fini();
}

static void test_invalid_handles(void) {
    sim_comm_init(3);
    CU_ASSERT_PTR_NULL(sim_comm_get(MPI_COMM_NULL, 0));
    CU_ASSERT_PTR_NULL(sim_comm_get(MPI_COMM_WORLD, 3)); /* not a rank */
    CU_ASSERT_PTR_NULL(sim_comm_get(DIRECT_COMM(0), 0)); /* not made yet */
    CU_ASSERT_PTR_NULL(sim_comm_get((MPI_Comm)MPI_INT, 0));
    CU_ASSERT_PTR_NULL(sim_comm_get((MPI_Comm)MPI_GROUP_EMPTY, 0));
    CU_ASSERT_STRING_EQUAL(sim_comm_why_invalid(MPI_COMM_NULL, 0), "is MPI_COMM_NULL");
    CU_ASSERT_STRING_EQUAL(sim_comm_why_invalid((MPI_Comm)MPI_INT, 0),
                           "is not a communicator handle");
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_comm_why_invalid(DIRECT_COMM(7), 0), "never created"));
    CU_ASSERT_PTR_NULL(sim_comm_why_invalid(MPI_COMM_WORLD, 1));
    CU_ASSERT_PTR_NULL(sim_comm_why_invalid(MPI_COMM_SELF, 2));
    sim_comm_fini();
}

static void test_names(void) {
    sim_comm_init(2);
    sim_comm *w = world();
    CU_ASSERT_STRING_EQUAL(sim_comm_name(w, 0), "MPI_COMM_WORLD");
    CU_ASSERT_STRING_EQUAL(sim_comm_name(sim_comm_get(MPI_COMM_SELF, 1), 1), "MPI_COMM_SELF");
    fake_coll *f = fake_new(w, SIM_COLL_COMM_DUP);
    fake_exec_ok(f);
    sim_comm *d = sim_comm_get(f->out[0], 0);
    CU_ASSERT_STRING_EQUAL(sim_comm_name(d, 0), ""); /* names are not inherited */
    sim_comm_set_name(d, 0, "rows");
    CU_ASSERT_STRING_EQUAL(sim_comm_name(d, 0), "rows");
    /* Names are local to each process (MPI 3.1 section 6.8). */
    CU_ASSERT_STRING_EQUAL(sim_comm_name(d, 1), "");
    /* Reports name the communicator as the program does. */
    char *want = g_strdup_printf("comm %d \"rows\" (dup of MPI_COMM_WORLD)", d->id);
    CU_ASSERT_STRING_EQUAL(sim_comm_describe(d), want);
    g_free(want);
    sim_comm_set_name(d, 1, "");
    CU_ASSERT_STRING_EQUAL(sim_comm_name(d, 0), "rows");
    CU_ASSERT_PTR_NULL(strstr(sim_comm_describe(d), "rows"));
    char long_name[300];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    sim_comm_set_name(w, 1, long_name);
    CU_ASSERT_EQUAL(strlen(sim_comm_name(w, 1)), MPI_MAX_OBJECT_NAME - 1);
    CU_ASSERT_STRING_EQUAL(sim_comm_name(w, 0), "MPI_COMM_WORLD");
    CU_ASSERT_TRUE(g_str_has_prefix(sim_comm_describe(w), "MPI_COMM_WORLD \"xxx"));
    fake_free(f);
    sim_comm_fini();
}

/* ---------------------------------------------------------------------- */
/* Constructors                                                            */

static void test_dup(void) {
    sim_comm_init(4);
    sim_comm *w = world();
    sim_comm_set_errhandler(w, 2, MPI_ERRORS_RETURN);
    fake_coll *f = fake_new(w, SIM_COLL_COMM_DUP);
    fake_exec_ok(f);
    for (int r = 0; r < 4; r++)
        CU_ASSERT_EQUAL(f->out[r], DIRECT_COMM(0));
    sim_comm *d = sim_comm_get(DIRECT_COMM(0), 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_PTR_NOT_EQUAL(d, w);
    CU_ASSERT_EQUAL(d->id, 5); /* after world and four selves */
    int all[] = {0, 1, 2, 3};
    assert_members(d, 4, all);
    CU_ASSERT_PTR_NULL(d->rank_of);
    CU_ASSERT_EQUAL(sim_comm_compare(d, w), MPI_CONGRUENT);
    CU_ASSERT_EQUAL(sim_comm_errhandler(d, 2), MPI_ERRORS_RETURN);
    CU_ASSERT_EQUAL(sim_comm_errhandler(d, 1), MPI_ERRORS_ARE_FATAL);
    CU_ASSERT_STRING_EQUAL(sim_comm_describe(d), "comm 5 (dup of MPI_COMM_WORLD)");
    CU_ASSERT_FALSE(d->cart);
    fake_free(f);
    sim_comm_fini();
}

static void test_split_colors_keys_undefined(void) {
    sim_comm_init(6);
    int colors[] = {0, 1, 0, MPI_UNDEFINED, 1, 0};
    int keys[] = {5, 0, 5, 0, -1, 1};
    fake_coll *f = split(world(), colors, keys);
    fake_exec_ok(f);
    /* colour 0 is made first, then colour 1 */
    CU_ASSERT_EQUAL(f->out[0], DIRECT_COMM(0));
    CU_ASSERT_EQUAL(f->out[2], DIRECT_COMM(0));
    CU_ASSERT_EQUAL(f->out[5], DIRECT_COMM(0));
    CU_ASSERT_EQUAL(f->out[1], DIRECT_COMM(1));
    CU_ASSERT_EQUAL(f->out[4], DIRECT_COMM(1));
    CU_ASSERT_EQUAL(f->out[3], MPI_COMM_NULL);
    sim_comm *c0 = sim_comm_get(DIRECT_COMM(0), 0);
    sim_comm *c1 = sim_comm_get(DIRECT_COMM(1), 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c1);
    int m0[] = {5, 0, 2}; /* key 1, then key 5 by old rank */
    int m1[] = {4, 1};    /* key -1 before key 0 */
    assert_members(c0, 3, m0);
    assert_members(c1, 2, m1);
    CU_ASSERT_EQUAL(sim_comm_rank(c0, 1), -1);
    CU_ASSERT_PTR_NULL(sim_comm_get(DIRECT_COMM(0), 1)); /* not a member */
    CU_ASSERT_PTR_NULL(sim_comm_get(DIRECT_COMM(0), 3));
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_comm_why_invalid(DIRECT_COMM(0), 1), "not a member"));
    CU_ASSERT_STRING_EQUAL(sim_comm_describe(c1), "comm 8 (split of MPI_COMM_WORLD)");
    fake_free(f);
    sim_comm_fini();
}

static void test_split_all_undefined_and_nested(void) {
    sim_comm_init(8);
    int undef[8];
    for (int i = 0; i < 8; i++)
        undef[i] = MPI_UNDEFINED;
    fake_coll *f = split(world(), undef, NULL);
    fake_exec_ok(f);
    for (int r = 0; r < 8; r++)
        CU_ASSERT_EQUAL(f->out[r], MPI_COMM_NULL);
    fake_free(f);

    /* Odd ranks, reversed by key; then split that into halves. */
    int colors[] = {MPI_UNDEFINED, 0, MPI_UNDEFINED, 0, MPI_UNDEFINED, 0, MPI_UNDEFINED, 0};
    int keys[] = {0, 4, 0, 3, 0, 2, 0, 1};
    f = split(world(), colors, keys);
    fake_exec_ok(f);
    sim_comm *odd = sim_comm_get(f->out[1], 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(odd);
    int m[] = {7, 5, 3, 1};
    assert_members(odd, 4, m);
    CU_ASSERT_PTR_NOT_NULL(odd->rank_of);
    fake_free(f);

    int c2[] = {0, 0, 1, 1}; /* indexed by rank in odd */
    f = split(odd, c2, NULL);
    fake_exec_ok(f);
    sim_comm *hi = sim_comm_get(f->out[0], 7);
    sim_comm *lo = sim_comm_get(f->out[2], 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hi);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lo);
    int mh[] = {7, 5}, ml[] = {3, 1};
    assert_members(hi, 2, mh);
    assert_members(lo, 2, ml);
    char *expect = g_strdup_printf("comm %d (split of comm %d)", hi->id, odd->id);
    CU_ASSERT_STRING_EQUAL(sim_comm_describe(hi), expect);
    g_free(expect);
    fake_free(f);
    sim_comm_fini();
}

static void test_split_errors(void) {
    sim_comm_init(4);
    int colors[] = {0, 1, -3, 0};
    fake_coll *f = split(world(), colors, NULL);
    fake_exec_err(f, MPI_ERR_ARG, 2, "color = -3");
    fake_free(f);
    /* Nothing was made: the next communicator still gets index 0. */
    int ok[] = {0, 0, 0, 0};
    f = split(world(), ok, NULL);
    fake_exec_ok(f);
    CU_ASSERT_EQUAL(f->out[0], DIRECT_COMM(0));
    fake_free(f);
    sim_comm_fini();
}

static void test_split_type_shared(void) {
    sim_comm_init(6);
    CU_ASSERT_EQUAL(sim_node_of(5), 0);
    fake_coll *f = fake_new(world(), SIM_COLL_COMM_SPLIT_TYPE);
    for (int r = 0; r < 6; r++)
        f->c.args[r].color = MPI_COMM_TYPE_SHARED;
    f->c.args[4].color = MPI_UNDEFINED;
    fake_exec_ok(f);
    sim_comm *node = sim_comm_get(f->out[0], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(node);
    int all_but_4[] = {0, 1, 2, 3, 5};
    assert_members(node, 5, all_but_4);
    CU_ASSERT_EQUAL(f->out[4], MPI_COMM_NULL);
    fake_free(f);

    int map[] = {1, 0, 1, 0, 2, 2};
    sim_comm_set_node_map(map);
    CU_ASSERT_EQUAL(sim_node_of(4), 2);
    f = fake_new(world(), SIM_COLL_COMM_SPLIT_TYPE);
    int keys[] = {0, 9, 0, 1, 0, 0};
    for (int r = 0; r < 6; r++) {
        f->c.args[r].color = MPI_COMM_TYPE_SHARED;
        f->c.args[r].key = keys[r];
    }
    fake_exec_ok(f);
    sim_comm *n0 = sim_comm_get(f->out[1], 1), *n1 = sim_comm_get(f->out[0], 0),
             *n2 = sim_comm_get(f->out[4], 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n2);
    int m0[] = {3, 1}, m1[] = {0, 2}, m2[] = {4, 5};
    assert_members(n0, 2, m0);
    assert_members(n1, 2, m1);
    assert_members(n2, 2, m2);
    CU_ASSERT_TRUE(strstr(sim_comm_describe(n0), "split_type of MPI_COMM_WORLD") != NULL);
    fake_free(f);

    sim_comm_set_node_map(NULL);
    CU_ASSERT_EQUAL(sim_node_of(4), 0);
    sim_comm_fini();
}

static void test_split_type_other_and_errors(void) {
    sim_comm_init(3);
    fake_coll *f = fake_new(world(), SIM_COLL_COMM_SPLIT_TYPE);
    for (int r = 0; r < 3; r++)
        f->c.args[r].color = MPI_COMM_TYPE_HW_UNGUIDED;
    fake_exec_ok(f);
    for (int r = 0; r < 3; r++)
        CU_ASSERT_EQUAL(f->out[r], MPI_COMM_NULL);
    fake_free(f);

    f = fake_new(world(), SIM_COLL_COMM_SPLIT_TYPE);
    f->c.args[0].color = MPI_UNDEFINED;
    f->c.args[1].color = MPI_COMM_TYPE_SHARED;
    f->c.args[2].color = MPI_COMM_TYPE_HW_GUIDED;
    fake_exec_err(f, MPI_ERR_ARG, 2, "differs from comm rank 1");
    fake_free(f);

    f = fake_new(world(), SIM_COLL_COMM_SPLIT_TYPE);
    f->c.args[0].color = 77;
    fake_exec_err(f, MPI_ERR_ARG, 0, "split_type = 77");
    fake_free(f);
    sim_comm_fini();
}

static void test_create_subgroup(void) {
    sim_comm_init(5);
    int gm[] = {3, 1};
    MPI_Group g = sim_group_new(2, gm);
    fake_coll *f = fake_new(world(), SIM_COLL_COMM_CREATE);
    for (int r = 0; r < 5; r++)
        f->c.args[r].group = g;
    sim_comm_set_errhandler(world(), 3, MPI_ERRORS_RETURN);
    fake_exec_ok(f);
    CU_ASSERT_EQUAL(f->out[0], MPI_COMM_NULL);
    CU_ASSERT_EQUAL(f->out[2], MPI_COMM_NULL);
    CU_ASSERT_EQUAL(f->out[4], MPI_COMM_NULL);
    CU_ASSERT_EQUAL(f->out[1], DIRECT_COMM(0));
    CU_ASSERT_EQUAL(f->out[3], DIRECT_COMM(0));
    sim_comm *c = sim_comm_get(DIRECT_COMM(0), 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    assert_members(c, 2, gm); /* the group's order */
    CU_ASSERT_EQUAL(sim_comm_errhandler(c, 3), MPI_ERRORS_RETURN);
    CU_ASSERT_EQUAL(sim_comm_errhandler(c, 1), MPI_ERRORS_ARE_FATAL);
    fake_free(f);

    /* Equal contents under different handles are the same group. */
    MPI_Group g2 = sim_group_new(2, gm);
    CU_ASSERT_NOT_EQUAL(g, g2);
    f = fake_new(world(), SIM_COLL_COMM_CREATE);
    for (int r = 0; r < 5; r++)
        f->c.args[r].group = r % 2 ? g : g2;
    fake_exec_ok(f);
    CU_ASSERT_EQUAL(f->out[1], DIRECT_COMM(1));
    fake_free(f);

    /* MPI_GROUP_EMPTY: nobody gets a communicator. */
    f = fake_new(world(), SIM_COLL_COMM_CREATE);
    for (int r = 0; r < 5; r++)
        f->c.args[r].group = MPI_GROUP_EMPTY;
    fake_exec_ok(f);
    for (int r = 0; r < 5; r++)
        CU_ASSERT_EQUAL(f->out[r], MPI_COMM_NULL);
    fake_free(f);
    sim_group_release(sim_group_get(g));
    sim_group_release(sim_group_get(g2));
    sim_comm_fini();
}

/* MPI 2.2 on: disjoint groups, one communicator each. */
static void test_create_disjoint(void) {
    sim_comm_init(5);
    int even[] = {2, 0}, odd[] = {1, 3};
    MPI_Group ge = sim_group_new(2, even), go = sim_group_new(2, odd);
    MPI_Group go2 = sim_group_new(2, odd); /* the same group under another handle */
    fake_coll *f = fake_new(world(), SIM_COLL_COMM_CREATE);
    f->c.args[0].group = ge;
    f->c.args[1].group = go;
    f->c.args[2].group = ge;
    f->c.args[3].group = go2;
    f->c.args[4].group = go; /* not a member of the group it passes: MPI_COMM_NULL */
    fake_exec_ok(f);
    CU_ASSERT_EQUAL(f->out[0], DIRECT_COMM(0)); /* the group of comm rank 0 comes first */
    CU_ASSERT_EQUAL(f->out[2], DIRECT_COMM(0));
    CU_ASSERT_EQUAL(f->out[1], DIRECT_COMM(1));
    CU_ASSERT_EQUAL(f->out[3], DIRECT_COMM(1));
    CU_ASSERT_EQUAL(f->out[4], MPI_COMM_NULL);
    assert_members(sim_comm_get(DIRECT_COMM(0), 0), 2, even);
    assert_members(sim_comm_get(DIRECT_COMM(1), 3), 2, odd);
    CU_ASSERT_PTR_NULL(sim_comm_get(DIRECT_COMM(0), 1));
    fake_free(f);

    /* Every rank alone in its own group: each gets a communicator of one. */
    f = fake_new(world(), SIM_COLL_COMM_CREATE);
    MPI_Group single[5];
    for (int r = 0; r < 5; r++) {
        single[r] = sim_group_new(1, &r);
        f->c.args[r].group = single[r];
    }
    fake_exec_ok(f);
    for (int r = 0; r < 5; r++) {
        CU_ASSERT_EQUAL(f->out[r], DIRECT_COMM(2 + r));
        sim_comm *c = sim_comm_get(f->out[r], r);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        assert_members(c, 1, &r);
    }
    fake_free(f);

    /* Rank 0 outside every group, the others in one. */
    int rest[] = {1, 2, 3, 4};
    MPI_Group gr = sim_group_new(4, rest);
    f = fake_new(world(), SIM_COLL_COMM_CREATE);
    f->c.args[0].group = MPI_GROUP_EMPTY;
    for (int r = 1; r < 5; r++)
        f->c.args[r].group = gr;
    fake_exec_ok(f);
    CU_ASSERT_EQUAL(f->out[0], MPI_COMM_NULL);
    for (int r = 1; r < 5; r++)
        CU_ASSERT_EQUAL(f->out[r], DIRECT_COMM(7));
    fake_free(f);

    /* Overlapping groups are erroneous: comm rank 1 is in rank 0's group
     * but passes another. */
    int a[] = {0, 1}, b[] = {1, 2};
    MPI_Group ga = sim_group_new(2, a), gb = sim_group_new(2, b);
    f = fake_new(world(), SIM_COLL_COMM_CREATE);
    f->c.args[0].group = ga;
    f->c.args[1].group = gb;
    f->c.args[2].group = gb;
    f->c.args[3].group = MPI_GROUP_EMPTY;
    f->c.args[4].group = MPI_GROUP_EMPTY;
    fake_exec_err(f, MPI_ERR_GROUP, 0,
                  "includes comm rank 1, which passes another group (world ranks 1, 2)");
    fake_free(f);

    /* A member passing MPI_GROUP_EMPTY while its group's others name it. */
    f = fake_new(world(), SIM_COLL_COMM_CREATE);
    for (int r = 0; r < 5; r++)
        f->c.args[r].group = r == 3 ? MPI_GROUP_EMPTY : go;
    fake_exec_err(f, MPI_ERR_GROUP, 0, "every member of a group must pass the same group");
    fake_free(f);
    sim_comm_fini();
}

static void test_create_errors(void) {
    sim_comm_init(4);
    int gm[] = {0, 1}, other[] = {1, 0}, bigger[] = {0, 1, 2};
    MPI_Group g = sim_group_new(2, gm), go = sim_group_new(2, other), gb = sim_group_new(3, bigger);

    fake_coll *f = fake_new(world(), SIM_COLL_COMM_CREATE);
    for (int r = 0; r < 4; r++)
        f->c.args[r].group = g;
    f->c.args[2].group = go;
    fake_exec_err(f, MPI_ERR_GROUP, 2, "same group");
    fake_free(f);

    f = fake_new(world(), SIM_COLL_COMM_CREATE);
    for (int r = 0; r < 4; r++)
        f->c.args[r].group = g;
    f->c.args[3].group = gb;
    fake_exec_err(f, MPI_ERR_GROUP, 3, "(world ranks 0, 1, 2) includes comm rank 0");
    fake_free(f);

    f = fake_new(world(), SIM_COLL_COMM_CREATE);
    for (int r = 0; r < 4; r++)
        f->c.args[r].group = g;
    f->c.args[1].group = MPI_GROUP_NULL;
    fake_exec_err(f, MPI_ERR_GROUP, 1, "not a valid group");
    fake_free(f);

    /* A group with a rank outside the communicator is not a subgroup. */
    int colors[] = {0, 0, 1, 1};
    f = split(world(), colors, NULL);
    fake_exec_ok(f);
    sim_comm *low = sim_comm_get(f->out[0], 0);
    fake_free(f);
    fake_coll *f2 = fake_new(low, SIM_COLL_COMM_CREATE);
    f2->c.args[0].group = gb;
    f2->c.args[1].group = gb;
    fake_exec_err(f2, MPI_ERR_GROUP, 0, "not a subgroup");
    fake_free(f2);
    sim_comm_fini();
}

static void test_cart_create(void) {
    sim_comm_init(8);
    int dims[] = {2, 3}, periods[] = {1, 0};
    fake_coll *f = fake_new(world(), SIM_COLL_CART_CREATE);
    for (int r = 0; r < 8; r++) {
        f->c.args[r].ndims = 2;
        f->c.args[r].dims = dims;
        f->c.args[r].periods = periods;
        f->c.args[r].reorder = 1;
    }
    fake_exec_ok(f);
    for (int r = 0; r < 6; r++)
        CU_ASSERT_EQUAL(f->out[r], DIRECT_COMM(0));
    CU_ASSERT_EQUAL(f->out[6], MPI_COMM_NULL);
    CU_ASSERT_EQUAL(f->out[7], MPI_COMM_NULL);
    sim_comm *c = sim_comm_get(DIRECT_COMM(0), 5);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(c->size, 6);
    CU_ASSERT_TRUE(c->cart);
    CU_ASSERT_EQUAL(c->ndims, 2);
    CU_ASSERT_EQUAL(c->dims[0], 2);
    CU_ASSERT_EQUAL(c->dims[1], 3);
    CU_ASSERT_EQUAL(c->periods[0], 1);
    CU_ASSERT_EQUAL(c->periods[1], 0);
    CU_ASSERT_PTR_NULL(c->rank_of); /* a prefix of world is an identity map */
    CU_ASSERT_PTR_NULL(sim_comm_get(DIRECT_COMM(0), 6));
    fake_free(f);

    /* A dup keeps the topology. */
    f = fake_new(c, SIM_COLL_COMM_DUP);
    fake_exec_ok(f);
    sim_comm *d = sim_comm_get(f->out[0], 0);
    CU_ASSERT_TRUE(d->cart);
    CU_ASSERT_EQUAL(d->ndims, 2);
    CU_ASSERT_EQUAL(d->periods[0], 1);
    fake_free(f);

    /* Zero dimensions: a one-rank Cartesian communicator. */
    f = fake_new(world(), SIM_COLL_CART_CREATE);
    fake_exec_ok(f);
    sim_comm *z = sim_comm_get(f->out[0], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(z);
    CU_ASSERT_EQUAL(z->size, 1);
    CU_ASSERT_TRUE(z->cart);
    CU_ASSERT_EQUAL(z->ndims, 0);
    CU_ASSERT_EQUAL(f->out[1], MPI_COMM_NULL);
    fake_free(f);
    sim_comm_fini();
}

static void test_cart_create_errors(void) {
    sim_comm_init(4);
    int dims[] = {2, 2}, other[] = {4, 1}, big[] = {3, 2}, periods[] = {0, 0}, p2[] = {0, 1};
    fake_coll *f = fake_new(world(), SIM_COLL_CART_CREATE);
    for (int r = 0; r < 4; r++) {
        f->c.args[r].ndims = 2;
        f->c.args[r].dims = r == 3 ? other : dims;
        f->c.args[r].periods = periods;
    }
    fake_exec_err(f, MPI_ERR_DIMS, 3, "dims[0] = 4 differs from comm rank 0's 2");
    fake_free(f);

    f = fake_new(world(), SIM_COLL_CART_CREATE);
    for (int r = 0; r < 4; r++) {
        f->c.args[r].ndims = r == 1 ? 1 : 2;
        f->c.args[r].dims = dims;
        f->c.args[r].periods = periods;
    }
    fake_exec_err(f, MPI_ERR_DIMS, 1, "ndims = 1");
    fake_free(f);

    f = fake_new(world(), SIM_COLL_CART_CREATE);
    for (int r = 0; r < 4; r++) {
        f->c.args[r].ndims = 2;
        f->c.args[r].dims = dims;
        f->c.args[r].periods = r == 2 ? p2 : periods;
    }
    fake_exec_err(f, MPI_ERR_ARG, 2, "periods[1]");
    fake_free(f);

    f = fake_new(world(), SIM_COLL_CART_CREATE);
    for (int r = 0; r < 4; r++) {
        f->c.args[r].ndims = 2;
        f->c.args[r].dims = big;
        f->c.args[r].periods = periods;
    }
    fake_exec_err(f, MPI_ERR_TOPOLOGY, 0, "larger than");
    fake_free(f);
    sim_comm_fini();
}

static void test_unknown_kind(void) {
    sim_comm_init(2);
    fake_coll *f = fake_new(world(), SIM_COLL_BCAST);
    fake_exec_err(f, MPI_ERR_INTERN, 0, "not a communicator constructor");
    fake_free(f);
    sim_comm_fini();
}

/* ---------------------------------------------------------------------- */
/* Handles, release, compare                                               */

/* Makes the same communicators and groups as any other run of it would. */
static void handle_script(MPI_Comm *comms, MPI_Group *groups) {
    int colors[] = {1, 0, 1, 0, 2};
    fake_coll *f = split(world(), colors, NULL);
    fake_exec_ok(f);
    comms[0] = f->out[1];
    comms[1] = f->out[0];
    comms[2] = f->out[4];
    fake_free(f);
    f = fake_new(sim_comm_get(comms[1], 0), SIM_COLL_COMM_DUP);
    fake_exec_ok(f);
    comms[3] = f->out[0];
    fake_free(f);
    int m[] = {4, 2};
    groups[0] = sim_group_new_for(0, 2, m);
    groups[1] = sim_group_new_for(1, 1, m);
    sim_group_release_for(sim_group_get(groups[0]), 0);
    groups[2] = sim_group_new_for(2, 2, m); /* takes the freed index */
    groups[3] = sim_comm_group(world(), 3);
}

static void test_handle_determinism(void) {
    MPI_Comm c1[4], c2[4];
    MPI_Group g1[4], g2[4];
    sim_comm_init(5);
    handle_script(c1, g1);
    sim_comm_fini();
    sim_comm_init(5);
    handle_script(c2, g2);
    sim_comm_fini();
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(c1[i], c2[i]);
        CU_ASSERT_EQUAL(g1[i], g2[i]);
    }
    CU_ASSERT_EQUAL(c1[0], DIRECT_COMM(0)); /* colour 0 */
    CU_ASSERT_EQUAL(c1[1], DIRECT_COMM(1));
    CU_ASSERT_EQUAL(c1[2], DIRECT_COMM(2));
    CU_ASSERT_EQUAL(c1[3], DIRECT_COMM(3));
    CU_ASSERT_EQUAL(g1[0], DIRECT_GROUP(0));
    CU_ASSERT_EQUAL(g1[1], DIRECT_GROUP(1));
    CU_ASSERT_EQUAL(g1[2], DIRECT_GROUP(0));
    CU_ASSERT_EQUAL(g1[3], DIRECT_GROUP(2));
}

static void test_release(void) {
    sim_comm_init(3);
    CU_ASSERT_FALSE(sim_comm_release(world(), 0));
    CU_ASSERT_FALSE(sim_comm_release(sim_comm_get(MPI_COMM_SELF, 1), 1));
    fake_coll *f = fake_new(world(), SIM_COLL_COMM_DUP);
    fake_exec_ok(f);
    sim_comm *d = sim_comm_get(f->out[0], 0);
    CU_ASSERT_TRUE(sim_comm_release(d, 1));
    CU_ASSERT_FALSE(sim_comm_release(d, 1)); /* twice */
    CU_ASSERT_PTR_NULL(sim_comm_get(f->out[1], 1));
    CU_ASSERT_STRING_EQUAL(sim_comm_why_invalid(f->out[1], 1), "was freed by this rank");
    CU_ASSERT_PTR_EQUAL(sim_comm_get(f->out[0], 0), d); /* others keep theirs */
    CU_ASSERT_PTR_EQUAL(sim_comm_get(f->out[2], 2), d);
    fake_free(f);
    sim_comm_fini();
}

static void test_compare(void) {
    sim_comm_init(4);
    sim_comm *w = world();
    CU_ASSERT_EQUAL(sim_comm_compare(w, w), MPI_IDENT);
    int same[] = {0, 0, 0, 0}, rev[] = {3, 2, 1, 0};
    fake_coll *f = split(w, same, rev);
    fake_exec_ok(f);
    sim_comm *r = sim_comm_get(f->out[0], 0);
    CU_ASSERT_EQUAL(sim_comm_compare(r, w), MPI_SIMILAR);
    CU_ASSERT_EQUAL(sim_comm_compare(w, r), MPI_SIMILAR);
    fake_free(f);
    sim_comm *self0 = sim_comm_get(MPI_COMM_SELF, 0);
    CU_ASSERT_EQUAL(sim_comm_compare(self0, w), MPI_UNEQUAL);
    CU_ASSERT_EQUAL(sim_comm_compare(self0, sim_comm_get(MPI_COMM_SELF, 1)), MPI_UNEQUAL);
    int only0[] = {0, MPI_UNDEFINED, MPI_UNDEFINED, MPI_UNDEFINED};
    f = split(w, only0, NULL);
    fake_exec_ok(f);
    CU_ASSERT_EQUAL(sim_comm_compare(sim_comm_get(f->out[0], 0), self0), MPI_CONGRUENT);
    fake_free(f);
    sim_comm_fini();
}

/* 10,000 ranks: identity maps stay table-free and lookups stay exact. */
static void test_large_membership(void) {
    enum { N = 10000 };
    sim_comm_init(N);
    int *colors = g_new(int, N), *keys = g_new(int, N);
    for (int r = 0; r < N; r++) {
        colors[r] = r % 2;
        keys[r] = N - r;
    }
    fake_coll *f = split(world(), colors, keys);
    fake_exec_ok(f);
    sim_comm *even = sim_comm_get(f->out[0], 0), *odd = sim_comm_get(f->out[1], 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(even);
    CU_ASSERT_PTR_NOT_NULL_FATAL(odd);
    CU_ASSERT_EQUAL(even->size, N / 2);
    bool ok = true;
    for (int w = 0; w < N; w++) {
        const sim_comm *mine = w % 2 ? odd : even, *other = w % 2 ? even : odd;
        int expect = N / 2 - 1 - w / 2; /* reversed by key */
        ok = ok && sim_comm_rank(mine, w) == expect && sim_comm_world(mine, expect) == w &&
             sim_comm_rank(other, w) == -1;
    }
    CU_ASSERT_TRUE(ok);
    fake_free(f);
    for (int r = 0; r < N; r++)
        colors[r] = r < N / 2 ? 0 : MPI_UNDEFINED;
    f = split(world(), colors, NULL);
    fake_exec_ok(f);
    sim_comm *half = sim_comm_get(f->out[0], 0);
    CU_ASSERT_PTR_NULL(half->rank_of);
    CU_ASSERT_EQUAL(sim_comm_rank(half, N / 2 - 1), N / 2 - 1);
    CU_ASSERT_EQUAL(sim_comm_rank(half, N / 2), -1);
    CU_ASSERT_PTR_NULL(sim_comm_get(MPI_COMM_SELF, N - 1)->rank_of);
    fake_free(f);
    g_free(colors);
    g_free(keys);
    sim_comm_fini();
}

/* ---------------------------------------------------------------------- */
/* Groups                                                                  */

static void test_group_handles_and_holders(void) {
    sim_comm_init(3);
    CU_ASSERT_EQUAL(sim_group_get(MPI_GROUP_EMPTY)->size, 0);
    CU_ASSERT_PTR_NULL(sim_group_get(MPI_GROUP_NULL));
    CU_ASSERT_EQUAL(sim_group_new(0, NULL), MPI_GROUP_EMPTY);
    CU_ASSERT_STRING_EQUAL(sim_group_why_invalid(MPI_GROUP_NULL, 0), "is MPI_GROUP_NULL");
    CU_ASSERT_PTR_NULL(sim_group_why_invalid(MPI_GROUP_EMPTY, 0));

    MPI_Group wg0 = sim_comm_group(world(), 0), wg1 = sim_comm_group(world(), 1);
    CU_ASSERT_EQUAL(wg0, wg1); /* one group object per communicator */
    sim_group *g = sim_group_get(wg0);
    CU_ASSERT_EQUAL(g->refs, 3); /* world's own + two handles */
    CU_ASSERT_PTR_EQUAL(sim_group_get_for(wg0, 1), g);
    CU_ASSERT_PTR_NULL(sim_group_get_for(wg0, 2)); /* rank 2 holds no handle */
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_group_why_invalid(wg0, 2), "not held by this rank"));
    CU_ASSERT_TRUE(sim_group_release_for(g, 1));
    CU_ASSERT_FALSE(sim_group_release_for(g, 1));
    CU_ASSERT_PTR_NULL(sim_group_get_for(wg0, 1));
    CU_ASSERT_TRUE(sim_group_release_for(g, 0));
    CU_ASSERT_PTR_EQUAL(sim_group_get(wg0), g); /* world still refers to it */
    CU_ASSERT_EQUAL(sim_comm_group(world(), 2), wg0);

    int m[] = {2, 0};
    MPI_Group a = sim_group_new_for(1, 2, m);
    sim_group *ga = sim_group_get_for(a, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ga);
    CU_ASSERT_TRUE(sim_group_release_for(ga, 1));
    CU_ASSERT_PTR_NULL(sim_group_get(a)); /* destroyed */
    CU_ASSERT_PTR_NOT_NULL(strstr(sim_group_why_invalid(a, 1), "no live group"));
    CU_ASSERT_EQUAL(sim_group_new_for(0, 1, m), a); /* lowest free index again */
    CU_ASSERT_TRUE(sim_group_release_for(sim_group_get(MPI_GROUP_EMPTY), 0));
    sim_comm_fini();
}

static void test_group_rank_and_compare(void) {
    sim_comm_init(8);
    int m[] = {6, 2, 4}, same_set[] = {2, 4, 6}, ident[] = {0, 1, 2};
    sim_group *a = sim_group_get(sim_group_new(3, m));
    sim_group *b = sim_group_get(sim_group_new(3, same_set));
    sim_group *c = sim_group_get(sim_group_new(3, ident));
    sim_group *a2 = sim_group_get(sim_group_new(3, m));
    sim_group *e = sim_group_get(MPI_GROUP_EMPTY);
    CU_ASSERT_EQUAL(sim_group_rank(a, 6), 0);
    CU_ASSERT_EQUAL(sim_group_rank(a, 4), 2);
    CU_ASSERT_EQUAL(sim_group_rank(a, 0), -1);
    CU_ASSERT_PTR_NULL(c->rank_of);
    CU_ASSERT_EQUAL(sim_group_rank(c, 2), 2);
    CU_ASSERT_EQUAL(sim_group_rank(c, 3), -1);
    CU_ASSERT_EQUAL(sim_group_rank(e, 0), -1);
    CU_ASSERT_EQUAL(sim_group_compare(a, a2), MPI_IDENT);
    CU_ASSERT_EQUAL(sim_group_compare(a, b), MPI_SIMILAR);
    CU_ASSERT_EQUAL(sim_group_compare(a, c), MPI_UNEQUAL);
    CU_ASSERT_EQUAL(sim_group_compare(e, e), MPI_IDENT);
    CU_ASSERT_EQUAL(sim_group_compare(e, a), MPI_UNEQUAL);
    sim_comm_fini();
}

static void test_group_incl_excl(void) {
    sim_comm_init(8);
    int m[] = {10, 11, 12, 13, 14}; /* world ranks need not exist for group algebra */
    sim_group *g = sim_group_get(sim_group_new(5, m));
    int *out = NULL, n = -1;
    char *why = NULL;
    int r1[] = {4, 0, 2};
    CU_ASSERT_EQUAL(sim_group_incl_members(g, 3, r1, &out, &n, &why), MPI_SUCCESS);
    int e1[] = {14, 10, 12};
    assert_list(out, n, 3, e1);
    g_free(out);
    CU_ASSERT_EQUAL(sim_group_incl_members(g, 0, NULL, &out, &n, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_PTR_NULL(out);

    CU_ASSERT_EQUAL(sim_group_excl_members(g, 3, r1, &out, &n, &why), MPI_SUCCESS);
    int e2[] = {11, 13};
    assert_list(out, n, 2, e2);
    g_free(out);
    CU_ASSERT_EQUAL(sim_group_excl_members(g, 0, NULL, &out, &n, &why), MPI_SUCCESS);
    assert_list(out, n, 5, m);
    g_free(out);

    int bad[] = {1, 5};
    CU_ASSERT_EQUAL(sim_group_incl_members(g, 2, bad, &out, &n, &why), MPI_ERR_RANK);
    CU_ASSERT_STRING_EQUAL(why, "ranks[1] = 5 is out of range for a group of size 5");
    g_free(why);
    int dup[] = {1, 3, 1};
    CU_ASSERT_EQUAL(sim_group_excl_members(g, 3, dup, &out, &n, &why), MPI_ERR_RANK);
    CU_ASSERT_STRING_EQUAL(why, "ranks[2] = 1 repeats an earlier entry");
    g_free(why);
    CU_ASSERT_EQUAL(sim_group_incl_members(g, -1, r1, &out, &n, &why), MPI_ERR_ARG);
    g_free(why);
    CU_ASSERT_EQUAL(sim_group_incl_members(g, 6, r1, &out, &n, &why), MPI_ERR_ARG);
    g_free(why);
    sim_comm_fini();
}

static void test_group_ranges(void) {
    sim_comm_init(2);
    int m[10];
    for (int i = 0; i < 10; i++)
        m[i] = 100 + i;
    sim_group *g = sim_group_get(sim_group_new(10, m));
    int *out = NULL, n = -1;
    char *why = NULL;
    int ranges[][3] = {{0, 6, 3}, {9, 7, -1}, {1, 1, 5}};
    CU_ASSERT_EQUAL(sim_group_range_members(g, 3, ranges, true, &out, &n, &why), MPI_SUCCESS);
    int inc[] = {100, 103, 106, 109, 108, 107, 101};
    assert_list(out, n, 7, inc);
    g_free(out);
    CU_ASSERT_EQUAL(sim_group_range_members(g, 3, ranges, false, &out, &n, &why), MPI_SUCCESS);
    int exc[] = {102, 104, 105};
    assert_list(out, n, 3, exc);
    g_free(out);

    int zero[][3] = {{0, 4, 0}};
    CU_ASSERT_EQUAL(sim_group_range_members(g, 1, zero, true, &out, &n, &why), MPI_ERR_ARG);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "stride 0"));
    g_free(why);
    int far[][3] = {{8, 12, 2}};
    CU_ASSERT_EQUAL(sim_group_range_members(g, 1, far, true, &out, &n, &why), MPI_ERR_RANK);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "reaches rank 10"));
    g_free(why);
    int overlap[][3] = {{0, 4, 2}, {4, 5, 1}};
    CU_ASSERT_EQUAL(sim_group_range_members(g, 2, overlap, false, &out, &n, &why), MPI_ERR_RANK);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "ranges[1]"));
    g_free(why);
    int backwards[][3] = {{5, 2, 1}};
    CU_ASSERT_EQUAL(sim_group_range_members(g, 1, backwards, true, &out, &n, &why), MPI_ERR_ARG);
    g_free(why);
    /* A stride past last still includes first. */
    int single[][3] = {{2, 3, 100}};
    CU_ASSERT_EQUAL(sim_group_range_members(g, 1, single, true, &out, &n, &why), MPI_SUCCESS);
    int one[] = {102};
    assert_list(out, n, 1, one);
    g_free(out);
    sim_comm_fini();
}

static void test_group_set_operations(void) {
    sim_comm_init(8);
    int ma[] = {5, 1, 3, 7}, mb[] = {2, 3, 6, 5};
    sim_group *a = sim_group_get(sim_group_new(4, ma));
    sim_group *b = sim_group_get(sim_group_new(4, mb));
    sim_group *e = sim_group_get(MPI_GROUP_EMPTY);
    int *out = NULL, n = -1;
    sim_group_union_members(a, b, &out, &n);
    int u[] = {5, 1, 3, 7, 2, 6};
    assert_list(out, n, 6, u);
    g_free(out);
    sim_group_intersection_members(a, b, &out, &n);
    int in[] = {5, 3};
    assert_list(out, n, 2, in);
    g_free(out);
    sim_group_intersection_members(b, a, &out, &n);
    int in2[] = {3, 5};
    assert_list(out, n, 2, in2);
    g_free(out);
    sim_group_difference_members(a, b, &out, &n);
    int d[] = {1, 7};
    assert_list(out, n, 2, d);
    g_free(out);
    sim_group_difference_members(a, a, &out, &n);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_PTR_NULL(out);
    sim_group_union_members(e, b, &out, &n);
    assert_list(out, n, 4, mb);
    g_free(out);
    sim_group_intersection_members(a, e, &out, &n);
    CU_ASSERT_EQUAL(n, 0);
    sim_comm_fini();
}

static void test_group_translate(void) {
    sim_comm_init(8);
    int ma[] = {5, 1, 3, 7}, mb[] = {7, 6, 5};
    sim_group *a = sim_group_get(sim_group_new(4, ma));
    sim_group *b = sim_group_get(sim_group_new(3, mb));
    int r1[] = {0, 1, MPI_PROC_NULL, 3, 2};
    int r2[5];
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_group_translate(a, 5, r1, b, r2, &why), MPI_SUCCESS);
    int expect[] = {2, MPI_UNDEFINED, MPI_PROC_NULL, 0, MPI_UNDEFINED};
    assert_list(r2, 5, 5, expect);
    int bad[] = {0, 4};
    int keep[] = {-5, -5};
    CU_ASSERT_EQUAL(sim_group_translate(a, 2, bad, b, keep, &why), MPI_ERR_RANK);
    CU_ASSERT_STRING_EQUAL(why, "ranks1[1] = 4 is out of range for group1 of size 4");
    CU_ASSERT_EQUAL(keep[0], -5); /* nothing written on error */
    g_free(why);
    sim_comm_fini();
}

/* ---------------------------------------------------------------------- */
/* Cartesian arithmetic and Dims_create                                    */

static void test_cart_coords_rank(void) {
    int dims[] = {2, 3, 4}, periods[] = {0, 1, 0};
    int coords[3];
    bool ok = true;
    for (int r = 0; r < 24; r++) {
        sim_cart_coords(3, dims, r, coords);
        ok = ok && coords[0] == r / 12 && coords[1] == r / 4 % 3 && coords[2] == r % 4;
        int back = -1;
        char *why = NULL;
        ok = ok && sim_cart_rank(3, dims, periods, coords, &back, &why) == MPI_SUCCESS && back == r;
    }
    CU_ASSERT_TRUE(ok);
    int wrap[] = {1, -1, 3}, rank = -1;
    char *why = NULL;
    CU_ASSERT_EQUAL(sim_cart_rank(3, dims, periods, wrap, &rank, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(rank, 12 + 2 * 4 + 3);
    int wrap2[] = {0, 7, 0};
    CU_ASSERT_EQUAL(sim_cart_rank(3, dims, periods, wrap2, &rank, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(rank, 4);
    int out[] = {0, 0, 4};
    CU_ASSERT_EQUAL(sim_cart_rank(3, dims, periods, out, &rank, &why), MPI_ERR_ARG);
    CU_ASSERT_STRING_EQUAL(why, "coords[2] = 4 is outside 0..3 in a non-periodic dimension");
    g_free(why);
    CU_ASSERT_EQUAL(sim_cart_rank(0, NULL, NULL, NULL, &rank, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(rank, 0);
}

static void test_cart_shift(void) {
    int dims[] = {3, 4}, periods[] = {1, 0};
    int src, dst;
    /* rank 5 = (1, 1) */
    sim_cart_shift(2, dims, periods, 5, 0, 1, &src, &dst);
    CU_ASSERT_EQUAL(src, 1);
    CU_ASSERT_EQUAL(dst, 9);
    sim_cart_shift(2, dims, periods, 9, 0, 1, &src, &dst); /* (2, 1): wraps to row 0 */
    CU_ASSERT_EQUAL(src, 5);
    CU_ASSERT_EQUAL(dst, 1);
    sim_cart_shift(2, dims, periods, 5, 0, 7, &src, &dst); /* 7 = 1 mod 3 */
    CU_ASSERT_EQUAL(src, 1);
    CU_ASSERT_EQUAL(dst, 9);
    sim_cart_shift(2, dims, periods, 5, 1, 1, &src, &dst);
    CU_ASSERT_EQUAL(src, 4);
    CU_ASSERT_EQUAL(dst, 6);
    sim_cart_shift(2, dims, periods, 4, 1, 1, &src, &dst); /* (1, 0): left border */
    CU_ASSERT_EQUAL(src, MPI_PROC_NULL);
    CU_ASSERT_EQUAL(dst, 5);
    sim_cart_shift(2, dims, periods, 7, 1, -2, &src, &dst); /* (1, 3) */
    CU_ASSERT_EQUAL(src, MPI_PROC_NULL);
    CU_ASSERT_EQUAL(dst, 5);
    sim_cart_shift(2, dims, periods, 5, 1, 0, &src, &dst);
    CU_ASSERT_EQUAL(src, 5);
    CU_ASSERT_EQUAL(dst, 5);
    sim_cart_shift(2, dims, periods, 5, 1, 2147483647, &src, &dst);
    CU_ASSERT_EQUAL(src, MPI_PROC_NULL);
    CU_ASSERT_EQUAL(dst, MPI_PROC_NULL);
}

static void test_cart_sub_color_key(void) {
    int dims[] = {2, 3, 4};
    int keep_last[] = {0, 0, 1}, keep_first_last[] = {1, 0, 1}, none[] = {0, 0, 0},
        all[] = {1, 1, 1};
    int color, key;
    /* rank 17 = (1, 1, 1) */
    sim_cart_sub_color_key(3, dims, keep_last, 17, &color, &key);
    CU_ASSERT_EQUAL(color, 1 * 3 + 1);
    CU_ASSERT_EQUAL(key, 1);
    sim_cart_sub_color_key(3, dims, keep_first_last, 17, &color, &key);
    CU_ASSERT_EQUAL(color, 1);
    CU_ASSERT_EQUAL(key, 1 * 4 + 1);
    sim_cart_sub_color_key(3, dims, none, 17, &color, &key);
    CU_ASSERT_EQUAL(color, 17);
    CU_ASSERT_EQUAL(key, 0);
    sim_cart_sub_color_key(3, dims, all, 17, &color, &key);
    CU_ASSERT_EQUAL(color, 0);
    CU_ASSERT_EQUAL(key, 17);
}

static void test_cart_check(void) {
    char *why = NULL;
    int d[] = {2, 3};
    CU_ASSERT_EQUAL(sim_cart_check(2, d, 6, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(sim_cart_check(0, NULL, 1, &why), MPI_SUCCESS);
    CU_ASSERT_EQUAL(sim_cart_check(2, d, 5, &why), MPI_ERR_TOPOLOGY);
    CU_ASSERT_STRING_EQUAL(why, "dims (2, 3) make a grid larger than the communicator's 5 ranks");
    g_free(why);
    CU_ASSERT_EQUAL(sim_cart_check(-1, d, 5, &why), MPI_ERR_DIMS);
    g_free(why);
    int z[] = {2, 0};
    CU_ASSERT_EQUAL(sim_cart_check(2, z, 5, &why), MPI_ERR_DIMS);
    CU_ASSERT_STRING_EQUAL(why, "dims[1] = 0 is not positive");
    g_free(why);
    int huge[] = {65536, 65536, 65536, 65536}; /* no overflow into a small product */
    CU_ASSERT_EQUAL(sim_cart_check(4, huge, 10000, &why), MPI_ERR_TOPOLOGY);
    g_free(why);
}

static void check_dims(int nnodes, int ndims, const int *in, const int *expected) {
    int dims[8];
    memcpy(dims, in, sizeof(int) * (size_t)ndims);
    char *why = NULL;
    int rc = sim_dims_create(nnodes, ndims, dims, &why);
    CU_ASSERT_EQUAL(rc, MPI_SUCCESS);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "Dims_create(%d, %d): %s\n", nnodes, ndims, why);
        g_free(why);
        return;
    }
    for (int i = 0; i < ndims; i++)
        CU_ASSERT_EQUAL(dims[i], expected[i]);
}

static void test_dims_create_examples(void) {
    /* MPI 3.1 section 7.5.2's examples, then others. */
    check_dims(6, 2, (int[]){0, 0}, (int[]){3, 2});
    check_dims(7, 2, (int[]){0, 0}, (int[]){7, 1});
    check_dims(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    check_dims(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    check_dims(24, 3, (int[]){0, 0, 0}, (int[]){4, 3, 2});
    check_dims(32, 3, (int[]){0, 0, 0}, (int[]){4, 4, 2});
    check_dims(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    check_dims(12, 2, (int[]){0, 4}, (int[]){3, 4});
    check_dims(12, 2, (int[]){3, 4}, (int[]){3, 4});
    check_dims(10000, 2, (int[]){0, 0}, (int[]){100, 100});
    check_dims(2147483647, 2, (int[]){0, 0}, (int[]){2147483647, 1});
    check_dims(1, 0, (int[]){0}, (int[]){0});

    /* A highly composite product: many factorisations, the search must stay fast. */
    check_dims(735134400, 4, (int[]){0, 0, 0, 0}, (int[]){170, 168, 165, 156});
    check_dims(1 << 30, 4, (int[]){0, 0, 0, 0}, (int[]){256, 256, 128, 128});
    check_dims(1 << 30, 8, (int[]){0, 0, 0, 0, 0, 0, 0, 0}, (int[]){16, 16, 16, 16, 16, 16, 8, 8});
}

static void test_dims_create_errors(void) {
    char *why = NULL;
    int d1[] = {0, 3, 0};
    CU_ASSERT_EQUAL(sim_dims_create(7, 3, d1, &why), MPI_ERR_DIMS);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "not a multiple"));
    CU_ASSERT_EQUAL(d1[0], 0); /* unchanged */
    g_free(why);
    int d2[] = {2, 2};
    CU_ASSERT_EQUAL(sim_dims_create(6, 2, d2, &why), MPI_ERR_DIMS);
    g_free(why);
    int d3[] = {0, -2};
    CU_ASSERT_EQUAL(sim_dims_create(6, 2, d3, &why), MPI_ERR_DIMS);
    CU_ASSERT_STRING_EQUAL(why, "dims[1] = -2 is negative");
    g_free(why);
    CU_ASSERT_EQUAL(sim_dims_create(6, -1, d3, &why), MPI_ERR_DIMS);
    g_free(why);
    CU_ASSERT_EQUAL(sim_dims_create(0, 2, d2, &why), MPI_ERR_ARG);
    g_free(why);
    CU_ASSERT_EQUAL(sim_dims_create(2, 0, NULL, &why), MPI_ERR_DIMS);
    g_free(why);
    int big[] = {65536, 65536, 0}; /* product overflows an int: must not wrap */
    CU_ASSERT_EQUAL(sim_dims_create(1 << 30, 3, big, &why), MPI_ERR_DIMS);
    g_free(why);
}

/* The smallest first - last over the non-increasing k-tuples with product m
 * and entries <= maxd, by brute force; top is the first entry (< 0: the one
 * chosen now). */
static int brute_spread(int m, int k, int maxd, int top) {
    int best = G_MAXINT;
    for (int d = 1; d <= maxd && d <= m; d++) {
        if (m % d)
            continue;
        int t = top < 0 ? d : top;
        int s = k == 1 ? (d == m ? t - d : G_MAXINT) : brute_spread(m / d, k - 1, d, t);
        if (s < best)
            best = s;
    }
    return best;
}

static void test_dims_create_balanced(void) {
    bool ok = true;
    for (int k = 1; k <= 4; k++)
        for (int n = 1; n <= 300; n++) {
            int dims[4] = {0, 0, 0, 0};
            char *why = NULL;
            if (sim_dims_create(n, k, dims, &why) != MPI_SUCCESS) {
                ok = false;
                g_free(why);
                continue;
            }
            long long prod = 1;
            for (int i = 0; i < k; i++) {
                prod *= dims[i];
                ok = ok && (i == 0 || dims[i] <= dims[i - 1]);
            }
            ok = ok && prod == n;
            int best = brute_spread(n, k, n, -1);
            if (dims[0] - dims[k - 1] != best) {
                fprintf(stderr, "Dims_create(%d, %d): spread %d, best %d\n", n, k,
                        dims[0] - dims[k - 1], best);
                ok = false;
            }
        }
    CU_ASSERT_TRUE(ok);
}

static void test_node_map(void) {
    sim_comm_init(4);
    CU_ASSERT_EQUAL(sim_node_of(3), 0);
    int map[] = {0, 0, 1, 1};
    sim_comm_set_node_map(map);
    map[3] = 9; /* copied */
    CU_ASSERT_EQUAL(sim_node_of(3), 1);
    CU_ASSERT_EQUAL(sim_node_of(4), 0);
    sim_comm_fini();
    sim_comm_init(4);
    CU_ASSERT_EQUAL(sim_node_of(3), 0); /* fini forgets it */
    sim_comm_fini();
}

/* Intercommunicators: two sides, each with its group; merge and dup on the
 * communicator of both groups. */
static void test_intercomm(void) {
    sim_comm_init(4);
    int a[] = {0, 2}, b[] = {3, 1};
    sim_comm_set_errhandler(world(), 2, MPI_ERRORS_RETURN);
    sim_comm *sa =
        sim_comm_make_inter(world(), 2, g_memdup2(a, sizeof a), world(), 2, g_memdup2(b, sizeof b));
    sim_comm *sb = sa->remote;
    CU_ASSERT_PTR_NOT_NULL_FATAL(sb);
    CU_ASSERT_PTR_EQUAL(sb->remote, sa);
    CU_ASSERT_NOT_EQUAL(sa->handle, sb->handle);
    assert_members(sa, 2, a);
    assert_members(sb, 2, b);
    /* Each member reaches its own side, not the other. */
    CU_ASSERT_PTR_EQUAL(sim_comm_get(sa->handle, 2), sa);
    CU_ASSERT_PTR_NULL(sim_comm_get(sa->handle, 1));
    CU_ASSERT_PTR_EQUAL(sim_comm_get(sb->handle, 1), sb);
    CU_ASSERT_EQUAL(sim_comm_rank(sb, 1), 1);
    CU_ASSERT_EQUAL(sim_comm_errhandler(sa, 2), MPI_ERRORS_RETURN);
    sim_comm *u = sa->both;
    CU_ASSERT_PTR_EQUAL(sb->both, u);
    CU_ASSERT_PTR_EQUAL(u->inter, sa);
    const int all[] = {0, 2, 3, 1};
    assert_members(u, 4, all);

    /* Merge: the group with high false first, whichever side it is. */
    fake_coll *f = fake_new(u, SIM_COLL_INTERCOMM_MERGE);
    for (int r = 0; r < 4; r++)
        f->c.args[r].color = r < 2; /* side a high */
    fake_exec_ok(f);
    sim_comm *m = sim_comm_get(f->out[0], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const int b_first[] = {3, 1, 0, 2};
    assert_members(m, 4, b_first);
    CU_ASSERT_PTR_NULL(m->remote);
    CU_ASSERT_EQUAL(sim_comm_errhandler(m, 2), MPI_ERRORS_RETURN); /* as on the intercomm */
    CU_ASSERT_EQUAL(sim_comm_errhandler(m, 3), MPI_ERRORS_ARE_FATAL);
    for (int r = 1; r < 4; r++)
        CU_ASSERT_EQUAL(f->out[r], f->out[0]);
    fake_free(f);
    f = fake_new(u, SIM_COLL_INTERCOMM_MERGE); /* the same high: the first side first */
    fake_exec_ok(f);
    assert_members(sim_comm_get(f->out[0], 0), 4, all);
    fake_free(f);
    f = fake_new(u, SIM_COLL_INTERCOMM_MERGE);
    f->c.args[3].color = 1; /* world 1 disagrees with world 3, its group's other member */
    fake_exec_err(f, MPI_ERR_ARG, 3, "high = 1 differs from 0");
    fake_free(f);

    /* Dup: a new pair of the same groups. */
    f = fake_new(u, SIM_COLL_INTERCOMM_DUP);
    fake_exec_ok(f);
    sim_comm *da = sim_comm_get(f->out[0], 0), *db = sim_comm_get(f->out[2], 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(da);
    CU_ASSERT_PTR_NOT_NULL_FATAL(db);
    CU_ASSERT_PTR_EQUAL(da->remote, db);
    CU_ASSERT_EQUAL(f->out[1], da->handle);
    CU_ASSERT_EQUAL(f->out[3], db->handle);
    assert_members(da, 2, a);
    assert_members(db, 2, b);
    CU_ASSERT_EQUAL(sim_comm_errhandler(da, 2), MPI_ERRORS_RETURN);
    fake_free(f);
    sim_comm_fini();
}

/* Graph topologies: MPI_Graph_create's checks and its collective, the
 * distributed graph constructors, neighbours and how edges pair up. */
static void test_graph_topologies(void) {
    char *why = NULL;
    int idx[3] = {1, 2, 4}, edg[4] = {1, 0, 0, 1};
    CU_ASSERT_EQUAL(sim_graph_check(3, idx, edg, 3, &why), MPI_SUCCESS);
    int bad_idx[3] = {1, 0, 4};
    CU_ASSERT_EQUAL(sim_graph_check(3, bad_idx, edg, 3, &why), MPI_ERR_ARG);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "index[1] = 0 is less than the entry before"));
    g_free(why);
    int bad_edg[4] = {1, 0, 3, 1};
    CU_ASSERT_EQUAL(sim_graph_check(3, idx, bad_edg, 3, &why), MPI_ERR_TOPOLOGY);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "edges[2] = 3 is not a node"));
    g_free(why);
    CU_ASSERT_EQUAL(sim_graph_check(4, idx, edg, 3, &why), MPI_ERR_TOPOLOGY);
    g_free(why);

    sim_comm_init(4);
    /* MPI_Graph_create on 3 of 4 ranks. */
    sim_topo_args t = {.nnodes = 3, .index = idx, .edges = edg};
    fake_coll *f = fake_new(world(), SIM_COLL_GRAPH_CREATE);
    for (int r = 0; r < 4; r++)
        f->c.args[r].topo = &t;
    fake_exec_ok(f);
    CU_ASSERT_EQUAL(f->out[3], MPI_COMM_NULL);
    sim_comm *g = sim_comm_get(f->out[0], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL(g->size, 3);
    CU_ASSERT_EQUAL(g->nnodes, 3);
    int *in, *out, nin, nout;
    CU_ASSERT_TRUE(sim_comm_neighbors(g, 2, &in, &nin, &out, &nout));
    CU_ASSERT_EQUAL(nin, 2);
    CU_ASSERT_EQUAL(out[0], 0);
    CU_ASSERT_EQUAL(out[1], 1);
    g_free(in);
    g_free(out);
    /* Node 2 lists 0 and 1, but they do not list 2. */
    int dst, slot;
    CU_ASSERT_FALSE(sim_comm_neighbor_slot(g, 2, 0, &dst, &slot, &why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "rank 0 does not have rank 2 among its"));
    g_free(why);
    CU_ASSERT_TRUE(sim_comm_neighbor_slot(g, 0, 0, &dst, &slot, &why));
    CU_ASSERT_EQUAL(dst, 1);
    CU_ASSERT_EQUAL(slot, 0);
    fake_free(f);
    /* Members that pass different graphs. */
    int other[4] = {1, 0, 1, 0};
    sim_topo_args t2 = {.nnodes = 3, .index = idx, .edges = other};
    f = fake_new(world(), SIM_COLL_GRAPH_CREATE);
    for (int r = 0; r < 4; r++)
        f->c.args[r].topo = r == 2 ? &t2 : &t;
    fake_exec_err(f, MPI_ERR_TOPOLOGY, 2, "edges differs from comm rank 0's");
    fake_free(f);

    /* Adjacent: 0 -> 1 twice (weights 5 and 6), 1 -> 0 once. */
    int s0[1] = {1}, d0[2] = {1, 1}, w0[2] = {5, 6}, s1[2] = {0, 0}, d1[1] = {0}, sw1[2] = {5, 6};
    int one[1] = {9};
    sim_topo_args a[4] = {{.indegree = 1,
                           .sources = s0,
                           .sourceweights = one,
                           .outdegree = 2,
                           .destinations = d0,
                           .destweights = w0},
                          {.indegree = 2,
                           .sources = s1,
                           .sourceweights = sw1,
                           .outdegree = 1,
                           .destinations = d1,
                           .destweights = one},
                          {0},
                          {0}};
    f = fake_new(world(), SIM_COLL_DIST_GRAPH_CREATE_ADJACENT);
    for (int r = 0; r < 4; r++)
        f->c.args[r].topo = &a[r];
    fake_exec_ok(f);
    sim_comm *d = sim_comm_get(f->out[1], 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_TRUE(d->weighted);
    CU_ASSERT_EQUAL(d->adj[0].outdegree, 2);
    CU_ASSERT_EQUAL(d->adj[1].sourceweights[1], 6);
    /* The second edge 0 -> 1 is rank 1's second in-neighbour. */
    CU_ASSERT_TRUE(sim_comm_neighbor_slot(d, 0, 1, &dst, &slot, &why));
    CU_ASSERT_EQUAL(dst, 1);
    CU_ASSERT_EQUAL(slot, 1);
    fake_free(f);
    /* Rank 1 lists rank 0 once only: the edge lists disagree. */
    a[1].indegree = 1;
    f = fake_new(world(), SIM_COLL_DIST_GRAPH_CREATE_ADJACENT);
    for (int r = 0; r < 4; r++)
        f->c.args[r].topo = &a[r];
    fake_exec_err(f, MPI_ERR_TOPOLOGY, 1,
                  "comm rank 0 lists 1 as a destination 1 time(s) more than comm rank 1 lists 0");
    fake_free(f);

    /* General: rank 3 gives every edge of a star around 0, unweighted. */
    int srcs[2] = {0, 2}, degs[2] = {2, 1}, dsts[3] = {1, 2, 0};
    sim_topo_args none = {.n = 0, .unweighted = true};
    sim_topo_args all = {.n = 2, .srcs = srcs, .degrees = degs, .dests = dsts, .unweighted = true};
    f = fake_new(world(), SIM_COLL_DIST_GRAPH_CREATE);
    for (int r = 0; r < 4; r++)
        f->c.args[r].topo = r == 3 ? &all : &none;
    fake_exec_ok(f);
    sim_comm *st = sim_comm_get(f->out[0], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_FALSE(st->weighted);
    CU_ASSERT_EQUAL(st->adj[0].outdegree, 2);
    CU_ASSERT_EQUAL(st->adj[0].indegree, 1);
    CU_ASSERT_EQUAL(st->adj[0].sources[0], 2);
    CU_ASSERT_EQUAL(st->adj[2].destinations[0], 0);
    CU_ASSERT_EQUAL(st->adj[3].indegree + st->adj[3].outdegree, 0);
    CU_ASSERT_PTR_NULL(st->adj[0].sourceweights);
    fake_free(f);
    /* Some weighted, some not: an error. */
    int wts[3] = {1, 1, 1};
    sim_topo_args wall = all;
    wall.unweighted = false;
    wall.weights = wts;
    f = fake_new(world(), SIM_COLL_DIST_GRAPH_CREATE);
    for (int r = 0; r < 4; r++)
        f->c.args[r].topo = r == 3 ? &wall : &none;
    fake_exec_err(f, MPI_ERR_TOPOLOGY, 0, "MPI_UNWEIGHTED here but not at every member");
    fake_free(f);
    /* A dup keeps the topology. */
    f = fake_new(d, SIM_COLL_COMM_DUP);
    fake_exec_ok(f);
    sim_comm *dd = sim_comm_get(f->out[0], 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dd);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dd->adj);
    CU_ASSERT_EQUAL(dd->adj[1].indegree, 2);
    fake_free(f);
    sim_comm_fini();
}

int main(void) {
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite("comm", NULL, NULL);
    struct {
        const char *name;
        void (*fn)(void);
    } tests[] = {
        {"world and self", test_world_and_self},
        {"invalid handles", test_invalid_handles},
        {"names", test_names},
        {"dup", test_dup},
        {"split colours, keys, MPI_UNDEFINED", test_split_colors_keys_undefined},
        {"split all undefined, nested split", test_split_all_undefined_and_nested},
        {"split errors", test_split_errors},
        {"split_type shared", test_split_type_shared},
        {"split_type other types and errors", test_split_type_other_and_errors},
        {"create with a subgroup", test_create_subgroup},
        {"create errors", test_create_errors},
        {"create with disjoint groups", test_create_disjoint},
        {"cart_create", test_cart_create},
        {"cart_create errors", test_cart_create_errors},
        {"unknown constructor kind", test_unknown_kind},
        {"handle determinism", test_handle_determinism},
        {"release", test_release},
        {"compare", test_compare},
        {"membership at 10,000 ranks", test_large_membership},
        {"group handles and holders", test_group_handles_and_holders},
        {"group rank and compare", test_group_rank_and_compare},
        {"group incl/excl", test_group_incl_excl},
        {"group ranges", test_group_ranges},
        {"group set operations", test_group_set_operations},
        {"group translate", test_group_translate},
        {"cart coords/rank", test_cart_coords_rank},
        {"cart shift", test_cart_shift},
        {"cart sub colour/key", test_cart_sub_color_key},
        {"cart check", test_cart_check},
        {"dims_create examples", test_dims_create_examples},
        {"dims_create errors", test_dims_create_errors},
        {"dims_create is balanced", test_dims_create_balanced},
        {"node map", test_node_map},
        {"intercommunicators: sides, merge, dup", test_intercomm},
        {"graph and distributed graph topologies", test_graph_topologies},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(tests); i++)
        CU_add_test(s, tests[i].name, tests[i].fn);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failures != 0;
}
