/*
 * test_units.c - unit tests of perfmodel/units.c, the one grammar of sizes,
 * times and bandwidths: every unit, the meaning of k, kB and KiB, exact
 * values at the edges of 64 bits, and the message for each kind of bad text
 * (empty, sign, NaN, infinities, overflow, fractions of a byte, unknown
 * units, trailing text).
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "perfmodel/units.h"

/* Exact comparison of doubles: the parsers promise the double nearest to the
 * decimal value, so "1.2us" must be exactly 1.2e-6. */
#define EXACT(a, b) CU_ASSERT_EQUAL((double)(a), (double)(b))

static double time_of(const char *s) {
    double v = -12345;
    char *problem = NULL;
    CU_ASSERT_TRUE(pm_parse_time(s, &v, &problem));
    if (problem)
        fprintf(stderr, "\n%s: %s\n", s, problem);
    g_free(problem);
    return v;
}

static double bandwidth_of(const char *s) {
    double v = -12345;
    char *problem = NULL;
    CU_ASSERT_TRUE(pm_parse_bandwidth(s, &v, &problem));
    if (problem)
        fprintf(stderr, "\n%s: %s\n", s, problem);
    g_free(problem);
    return v;
}

static uint64_t size_of(const char *s) {
    uint64_t v = 12345;
    char *problem = NULL;
    bool ok = pm_parse_size(s, &v, &problem);
    CU_ASSERT_TRUE(ok);
    if (!ok)
        fprintf(stderr, "\n\"%s\" refused: %s\n", s, problem ? problem : "(no problem given)");
    CU_ASSERT_PTR_NULL(problem);
    g_free(problem);
    return v;
}

static void expect_problem(bool ok, char *problem, const char *want) {
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_PTR_NOT_NULL_FATAL(problem);
    if (strcmp(problem, want) != 0)
        fprintf(stderr, "\nexpected: %s\n     got: %s\n", want, problem);
    CU_ASSERT_STRING_EQUAL(problem, want);
    g_free(problem);
}

/* The size parser refuses text with exactly this message and leaves the
 * result alone. */
static void size_error(const char *text, const char *want) {
    uint64_t v = 777;
    char *problem = NULL;
    bool ok = pm_parse_size(text, &v, &problem);
    if (ok)
        fprintf(stderr, "\n\"%s\" accepted as %" G_GUINT64_FORMAT "\n", text, (guint64)v);
    CU_ASSERT_EQUAL(v, 777);
    expect_problem(ok, problem, want);
}

static void time_error(const char *text, const char *want) {
    double v = 777;
    char *problem = NULL;
    bool ok = pm_parse_time(text, &v, &problem);
    EXACT(v, 777);
    expect_problem(ok, problem, want);
}

/* ---------------------------------------------------------------------- */
/* Sizes                                                                   */

static void test_size_plain_bytes(void) {
    CU_ASSERT_EQUAL(size_of("0"), 0);
    CU_ASSERT_EQUAL(size_of("0B"), 0);
    CU_ASSERT_EQUAL(size_of("100"), 100);
    CU_ASSERT_EQUAL(size_of("100B"), 100);
    CU_ASSERT_EQUAL(size_of("65536"), 65536);
    CU_ASSERT_EQUAL(size_of("+65536"), 65536);
    CU_ASSERT_EQUAL(size_of("2.5e3"), 2500);
    CU_ASSERT_EQUAL(size_of("1E6"), 1000000);
    CU_ASSERT_EQUAL(size_of("0e999999999"), 0);
    CU_ASSERT_EQUAL(size_of("000064"), 64);
    /* Exact at the top: a double would round these to 2^64. */
    CU_ASSERT_EQUAL(size_of("18446744073709551615"), UINT64_MAX);
    CU_ASSERT_EQUAL(size_of("18446744073709551615B"), UINT64_MAX);
    CU_ASSERT_EQUAL(size_of("1844674407370955161.5e1"), UINT64_MAX);
    CU_ASSERT_EQUAL(size_of("18446744073709551614"), UINT64_MAX - 1);
}

/* K, M, G, T alone are powers of 1024 (as the command line always read
 * them); with B they are powers of 1000 (as platform files always read
 * them); with iB, powers of 1024. */
static void test_size_prefixes(void) {
    CU_ASSERT_EQUAL(size_of("64k"), 65536);
    CU_ASSERT_EQUAL(size_of("64K"), 65536);
    CU_ASSERT_EQUAL(size_of("64kB"), 64000);
    CU_ASSERT_EQUAL(size_of("64KB"), 64000);
    CU_ASSERT_EQUAL(size_of("64KiB"), 65536);
    CU_ASSERT_EQUAL(size_of("1M"), 1048576);
    CU_ASSERT_EQUAL(size_of("1MB"), 1000000);
    CU_ASSERT_EQUAL(size_of("1MiB"), 1048576);
    CU_ASSERT_EQUAL(size_of("2MB"), 2000000);
    CU_ASSERT_EQUAL(size_of("1G"), UINT64_C(1073741824));
    CU_ASSERT_EQUAL(size_of("3GB"), UINT64_C(3000000000));
    CU_ASSERT_EQUAL(size_of("4GiB"), UINT64_C(4294967296));
    CU_ASSERT_EQUAL(size_of("1T"), UINT64_C(1099511627776));
    CU_ASSERT_EQUAL(size_of("1TB"), UINT64_C(1000000000000));
    CU_ASSERT_EQUAL(size_of("1TiB"), UINT64_C(1099511627776));
}

static void test_size_fractions_and_spaces(void) {
    CU_ASSERT_EQUAL(size_of("1.5KiB"), 1536);
    CU_ASSERT_EQUAL(size_of("1.5k"), 1536);
    CU_ASSERT_EQUAL(size_of("1.5kB"), 1500);
    CU_ASSERT_EQUAL(size_of("0.5KiB"), 512);
    CU_ASSERT_EQUAL(size_of(".5KiB"), 512);
    CU_ASSERT_EQUAL(size_of("8.KiB"), 8192);
    CU_ASSERT_EQUAL(size_of("1e3KiB"), 1024000);
    CU_ASSERT_EQUAL(size_of("0.001MB"), 1000);
    CU_ASSERT_EQUAL(size_of("1.000000000000000000000000kB"), 1000);
    /* 2^-30 GiB is one byte; 2^34 GiB less a byte is the largest size. */
    CU_ASSERT_EQUAL(size_of("0.000000000931322574615478515625GiB"), 1);
    CU_ASSERT_EQUAL(size_of("17179869183.999999999068677425384521484375GiB"), UINT64_MAX);
    CU_ASSERT_EQUAL(size_of("16777215T"), UINT64_C(16777215) << 40);
    CU_ASSERT_EQUAL(size_of(" 12 KiB "), 12288);
    CU_ASSERT_EQUAL(size_of("64 k"), 65536);
    CU_ASSERT_EQUAL(size_of("\t64kB\n"), 64000);
}

static void test_size_errors(void) {
    size_error("", "empty value: \"\"");
    size_error("   ", "empty value: \"   \"");
    size_error("nan", "not a finite number: \"nan\"");
    size_error("NaN", "not a finite number: \"NaN\"");
    size_error("inf", "not a finite number: \"inf\"");
    size_error("-inf", "not a finite number: \"-inf\"");
    size_error("infinity", "not a finite number: \"infinity\"");
    size_error("lots", "not a number: \"lots\"");
    size_error("KiB", "not a number: \"KiB\"");
    size_error(".", "not a number: \".\"");
    size_error("-1", "must not be negative, got \"-1\"");
    size_error("-1KiB", "must not be negative, got \"-1KiB\"");
    size_error("0.5B", "not a whole number of bytes: \"0.5B\"");
    size_error("0.1KiB", "not a whole number of bytes: \"0.1KiB\"");
    size_error("1.0001kB", "not a whole number of bytes: \"1.0001kB\"");
    size_error("1e-999999999", "not a whole number of bytes: \"1e-999999999\"");
    size_error("0.000000000931322574615478515624GiB",
               "not a whole number of bytes: \"0.000000000931322574615478515624GiB\"");
    size_error("18446744073709551616",
               "too large: \"18446744073709551616\" (at most 18446744073709551615 bytes)");
    size_error("1e20", "too large: \"1e20\" (at most 18446744073709551615 bytes)");
    size_error("1e999999999", "too large: \"1e999999999\" (at most 18446744073709551615 bytes)");
    size_error("16777216T", "too large: \"16777216T\" (at most 18446744073709551615 bytes)");
    size_error("17179869184GiB",
               "too large: \"17179869184GiB\" (at most 18446744073709551615 bytes)");
    size_error("18446744073709551.616kB",
               "too large: \"18446744073709551.616kB\" (at most 18446744073709551615 bytes)");
    size_error("1Kib", "unknown size unit \"Kib\" in \"1Kib\" (use B, KB, MB, GB, TB, KiB, MiB, "
                       "GiB, TiB, K, M, G or T)");
    size_error("64KiB extra", "unknown size unit \"KiB extra\" in \"64KiB extra\" (use B, KB, MB, "
                              "GB, TB, KiB, MiB, GiB, TiB, K, M, G or T)");
    size_error("64x", "unknown size unit \"x\" in \"64x\" (use B, KB, MB, GB, TB, KiB, MiB, GiB, "
                      "TiB, K, M, G or T)");
    size_error("0x40", "unknown size unit \"x40\" in \"0x40\" (use B, KB, MB, GB, TB, KiB, MiB, "
                       "GiB, TiB, K, M, G or T)");
    size_error("1e", "unknown size unit \"e\" in \"1e\" (use B, KB, MB, GB, TB, KiB, MiB, GiB, "
                     "TiB, K, M, G or T)");
    size_error("16EiB", "unknown size unit \"EiB\" in \"16EiB\" (use B, KB, MB, GB, TB, KiB, MiB, "
                        "GiB, TiB, K, M, G or T)");
    size_error("1KB/s", "unknown size unit \"KB/s\" in \"1KB/s\" (use B, KB, MB, GB, TB, KiB, "
                        "MiB, GiB, TiB, K, M, G or T)");
    size_error("64KiB # default", "unknown size unit \"KiB # default\" in \"64KiB # default\" "
                                  "(use B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, K, M, G or T); "
                                  "comments must be on lines of their own");
}

/* ---------------------------------------------------------------------- */
/* Times and bandwidths                                                    */

static void test_time_units(void) {
    EXACT(time_of("2s"), 2.0);
    EXACT(time_of("3ms"), 3e-3);
    EXACT(time_of("5us"), 5e-6);
    EXACT(time_of("5\xc2\xb5s"), 5e-6); /* µs */
    EXACT(time_of("7ns"), 7e-9);
    EXACT(time_of("1.2us"), 1.2e-6);
    EXACT(time_of("0.3us"), 0.3e-6);
    EXACT(time_of(".3us"), 0.3e-6);
    EXACT(time_of("12.e-1us"), 1.2e-6);
    EXACT(time_of(" 5 us "), 5e-6);
    EXACT(time_of("2e-3s"), 2e-3);
    EXACT(time_of("2E+2ms"), 0.2);
    EXACT(time_of("0"), 0.0);
    EXACT(time_of("-1us"), -1e-6); /* range checks belong to the caller */

    time_error("5", "missing time unit in \"5\" (write e.g. 5us; units: s, ms, us or ns)");
    time_error("5usec", "unknown time unit \"usec\" in \"5usec\" (use s, ms, us or ns)");
    time_error("fast", "not a number: \"fast\"");
    time_error("", "empty value: \"\"");
    time_error("inf s", "not a finite number: \"inf s\"");
    time_error("nan us", "not a finite number: \"nan us\"");
    time_error("1e999s", "too large: \"1e999s\"");
    time_error("0x10s", "unknown time unit \"x10s\" in \"0x10s\" (use s, ms, us or ns)");
    time_error("5us # fast",
               "unknown time unit \"us # fast\" in \"5us # fast\" (use s, ms, us or ns); "
               "comments must be on lines of their own");
}

static void test_bandwidth_units(void) {
    EXACT(bandwidth_of("1Bps"), 1.0);
    EXACT(bandwidth_of("2KBps"), 2e3);
    EXACT(bandwidth_of("2kBps"), 2e3);
    EXACT(bandwidth_of("3MBps"), 3e6);
    EXACT(bandwidth_of("10GBps"), 1e10);
    EXACT(bandwidth_of("12.5GBps"), 12.5e9);
    EXACT(bandwidth_of("1TBps"), 1e12);
    EXACT(bandwidth_of("1KiBps"), 1024.0);
    EXACT(bandwidth_of("1MiBps"), 1048576.0);
    EXACT(bandwidth_of("2GiBps"), 2.0 * 1073741824.0);
    EXACT(bandwidth_of("1TiBps"), 1099511627776.0);
    EXACT(bandwidth_of("8bps"), 1.0);
    EXACT(bandwidth_of("8Kbps"), 1e3);
    EXACT(bandwidth_of("8Mbps"), 1e6);
    EXACT(bandwidth_of("100Gbps"), 12.5e9);
    EXACT(bandwidth_of("1Tbps"), 1.25e11);
    EXACT(bandwidth_of("10GB/s"), 1e10);
    EXACT(bandwidth_of("10Gb/s"), 1.25e9);
    EXACT(bandwidth_of("0"), 0.0);

    double v;
    char *problem = NULL;
    bool ok;
    ok = pm_parse_bandwidth("10", &v, &problem);
    expect_problem(ok, problem,
                   "missing bandwidth unit in \"10\" (write e.g. 10GBps; units: Bps, KBps, MBps, "
                   "GBps, TBps, KiBps, MiBps, GiBps, TiBps, bps, Kbps, Mbps, Gbps or Tbps)");
    problem = NULL;
    ok = pm_parse_bandwidth("10GB", &v, &problem);
    expect_problem(ok, problem,
                   "unknown bandwidth unit \"GB\" in \"10GB\" (use Bps, KBps, MBps, GBps, TBps, "
                   "KiBps, MiBps, GiBps, TiBps, bps, Kbps, Mbps, Gbps or Tbps)");
    problem = NULL;
    ok = pm_parse_bandwidth("NaN GBps", &v, &problem);
    expect_problem(ok, problem, "not a finite number: \"NaN GBps\"");
    problem = NULL;
    ok = pm_parse_bandwidth("1e300TBps", &v, &problem);
    expect_problem(ok, problem, "too large: \"1e300TBps\"");
}

int main(void) {
    static const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"sizes: plain bytes, exact to UINT64_MAX", test_size_plain_bytes},
        {"sizes: k and K are 1024, kB and KB 1000, KiB 1024", test_size_prefixes},
        {"sizes: fractions and spaces", test_size_fractions_and_spaces},
        {"sizes: every kind of bad text", test_size_errors},
        {"time units", test_time_units},
        {"bandwidth units", test_bandwidth_units},
    };
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite = CU_add_suite("units", NULL, NULL);
    if (!suite) {
        CU_cleanup_registry();
        return 2;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(tests); i++)
        if (!CU_add_test(suite, tests[i].name, tests[i].fn)) {
            CU_cleanup_registry();
            return 2;
        }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed == 0 ? 0 : 1;
}
