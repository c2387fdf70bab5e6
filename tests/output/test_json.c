/*
 * test_json.c - unit tests of output/json.c, the one JSON string escaper:
 * exact output for quotes, backslashes, control characters, valid
 * multi-byte UTF-8 and each kind of invalid UTF-8; then random byte strings,
 * each checked by a strict reader of RFC 8259 string literals and decoded
 * back.
 */
#include <CUnit/Basic.h>
#include <glib.h>
#include <stdbool.h>
#include <string.h>

#include "output/json.h"

#define FFFD "\xef\xbf\xbd"

static char *escaped(const char *text) {
    GString *s = g_string_new(NULL);
    out_json_string(s, text);
    return g_string_free(s, FALSE);
}

static void expect_escaped(const char *text, const char *want) {
    char *got = escaped(text);
    if (strcmp(got, want) != 0) {
        char *a = g_strescape(want, NULL), *b = g_strescape(got, NULL);
        fprintf(stderr, "\nexpected: %s\n     got: %s\n", a, b);
        g_free(a);
        g_free(b);
    }
    CU_ASSERT_STRING_EQUAL(got, want);
    g_free(got);
}

/* ---------------------------------------------------------------------- */
/* A strict reader of one JSON string literal (RFC 8259 section 7)         */

static int hex4(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int d = g_ascii_xdigit_value(p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* The value of the literal that is the whole of `json`, newly allocated, or
 * NULL when json is not exactly one valid JSON string literal: UTF-8
 * throughout (section 8.1), no raw control character, only the escapes
 * section 7 allows, surrogates only in pairs, nothing after the closing
 * quote. */
static char *read_literal(const char *json) {
    if (!g_utf8_validate(json, -1, NULL) || json[0] != '"')
        return NULL;
    GString *v = g_string_new(NULL);
    const char *p = json + 1;
    for (;;) {
        unsigned char c = (unsigned char)*p;
        if (c == '\0' || c < 0x20)
            goto bad;
        if (c == '"') {
            p++;
            break;
        }
        if (c != '\\') {
            g_string_append_c(v, (char)c);
            p++;
            continue;
        }
        const char *simple = strchr("\"\\/bfnrt", p[1]);
        if (p[1] != '\0' && simple) {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            g_string_append_c(v, decoded[simple - "\"\\/bfnrt"]);
            p += 2;
            continue;
        }
        if (p[1] != 'u')
            goto bad;
        int u = hex4(p + 2);
        if (u < 0)
            goto bad;
        p += 6;
        gunichar ch = (gunichar)u;
        if (u >= 0xDC00 && u <= 0xDFFF)
            goto bad;
        if (u >= 0xD800 && u <= 0xDBFF) {
            int lo = p[0] == '\\' && p[1] == 'u' ? hex4(p + 2) : -1;
            if (lo < 0xDC00 || lo > 0xDFFF)
                goto bad;
            ch = 0x10000 + (((gunichar)u - 0xD800) << 10) + ((gunichar)lo - 0xDC00);
            p += 6;
        }
        if (ch == 0) /* a C string cannot hold it, and nothing writes it */
            goto bad;
        char buf[8];
        g_string_append_len(v, buf, g_unichar_to_utf8(ch, buf));
    }
    if (*p != '\0')
        goto bad;
    return g_string_free(v, FALSE);
bad:
    g_string_free(v, TRUE);
    return NULL;
}

/* The reader itself must refuse what is not JSON, or the random test below
 * could not fail. */
static void test_reader_is_strict(void) {
    static const char *const bad[] = {
        "",          "abc",          "\"abc",     "\"a\"b",      "\"a\x01\"",
        "\"a\n\"",   "\"\\x41\"",    "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"",
        "\"a\xe9\"", "\"\xc0\xaf\"", "\"\\'\"",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *v = read_literal(bad[i]);
        if (v)
            fprintf(stderr, "\naccepted: %s\n", bad[i]);
        CU_ASSERT_PTR_NULL(v);
        g_free(v);
    }
    char *v = read_literal("\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\xe2\x82\xac\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(v, "a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\xe2\x82\xac");
    g_free(v);
}

/* ---------------------------------------------------------------------- */
/* The escaper                                                             */

static void test_plain_quotes_backslashes(void) {
    expect_escaped(NULL, "\"\"");
    expect_escaped("", "\"\"");
    expect_escaped("ring.c:42", "\"ring.c:42\"");
    expect_escaped("say \"hi\"", "\"say \\\"hi\\\"\"");
    expect_escaped("C:\\dir\\", "\"C:\\\\dir\\\\\"");
    expect_escaped("\\\"", "\"\\\\\\\"\"");
    expect_escaped("a/b", "\"a/b\"");
    expect_escaped("\x7f", "\"\x7f\""); /* DEL is not a control character to JSON */
    /* Appends: what the string held stays. */
    GString *s = g_string_new("{\"k\": ");
    out_json_string(s, "v");
    CU_ASSERT_STRING_EQUAL(s->str, "{\"k\": \"v\"");
    g_string_free(s, TRUE);
}

static void test_control_characters(void) {
    expect_escaped("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
    expect_escaped("\x01", "\"\\u0001\"");
    expect_escaped("a\x1b[31mred\x1b[0m", "\"a\\u001b[31mred\\u001b[0m\"");
    expect_escaped("\x0b\x1f", "\"\\u000b\\u001f\"");
    char all[32];
    for (int i = 1; i < 32; i++)
        all[i - 1] = (char)i;
    all[31] = '\0';
    char *got = escaped(all);
    char *back = read_literal(got);
    CU_ASSERT_PTR_NOT_NULL(back);
    CU_ASSERT_TRUE(back && strcmp(back, all) == 0);
    g_free(back);
    g_free(got);
}

static void test_valid_utf8_unchanged(void) {
    static const char *const valid[] = {
        "caf\xc3\xa9",      /* é: 2 bytes */
        "\xe2\x82\xac 5",   /* €: 3 bytes */
        "\xf0\x9f\x98\x80", /* U+1F600: 4 bytes */
        "\xf4\x8f\xbf\xbf", /* U+10FFFF, the last code point */
        "\xef\xbf\xbd",     /* U+FFFD itself */
        "\xe2\x80\xa8",     /* U+2028: valid JSON, if not JavaScript */
        "\xc2\x80\xc2\x9f", /* C1 controls: not escaped by JSON */
        "\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 \xe4\xb8\x96\xe7\x95\x8c",
    };
    for (size_t i = 0; i < G_N_ELEMENTS(valid); i++) {
        char *want = g_strdup_printf("\"%s\"", valid[i]);
        expect_escaped(valid[i], want);
        g_free(want);
    }
}

static void test_invalid_utf8_replaced(void) {
    /* The byte of Latin-1 é in a path: the case that once gave a report
     * parsers refused. */
    expect_escaped("/tmp/caf\xe9/prog.c", "\"/tmp/caf" FFFD "/prog.c\"");
    expect_escaped("\xe9", "\"" FFFD "\"");
    expect_escaped("\x80", "\"" FFFD "\"");                            /* stray continuation */
    expect_escaped("\xff\xfe", "\"" FFFD FFFD "\"");                   /* never in UTF-8 */
    expect_escaped("\xe2\x82x", "\"" FFFD FFFD "x\"");                 /* truncated */
    expect_escaped("x\xf0\x9f\x98", "\"x" FFFD FFFD FFFD "\"");        /* truncated at the end */
    expect_escaped("\xc0\xaf", "\"" FFFD FFFD "\"");                   /* overlong '/' */
    expect_escaped("\xe0\x80\xa2", "\"" FFFD FFFD FFFD "\"");          /* overlong '"' */
    expect_escaped("\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"");          /* a surrogate */
    expect_escaped("\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\""); /* past U+10FFFF */
    /* Escapes and valid characters around the bad byte are kept. */
    expect_escaped("\"\xe9\n\xc3\xa9\\", "\"\\\"" FFFD "\\n\xc3\xa9\\\\\"");
}

/* Random byte strings, weighted to the bytes that matter (controls, quote,
 * backslash, UTF-8 lead and continuation bytes), with a fixed seed. */
static void test_random_bytes(void) {
    static const unsigned char interesting[] = {0x01, 0x08, 0x09, 0x0a, 0x1f, '"',  '\\', '/',
                                                'a',  0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xa9, 0xe2,
                                                0x82, 0xac, 0xed, 0xa0, 0xf0, 0x9f, 0xf4, 0xff};
    GRand *rng = g_rand_new_with_seed(20240611);
    int failures = 0;
    for (int n = 0; n < 20000; n++) {
        char text[48];
        int len = g_rand_int_range(rng, 0, (gint32)sizeof text);
        for (int i = 0; i < len; i++)
            text[i] = (char)(g_rand_boolean(rng)
                                 ? interesting[g_rand_int_range(rng, 0, sizeof interesting)]
                                 : g_rand_int_range(rng, 1, 256));
        text[len] = '\0';
        char *json = escaped(text);
        char *back = read_literal(json);
        char *want = g_utf8_make_valid(text, -1);
        bool ok = back && strcmp(back, want) == 0 &&
                  (!g_utf8_validate(text, -1, NULL) || strcmp(back, text) == 0);
        if (!ok && failures++ < 5) {
            char *a = g_strescape(text, NULL), *b = g_strescape(json, NULL);
            fprintf(stderr, "\ninput %s\ngave  %s (%s)\n", a, b,
                    back ? "decodes to something else" : "not a JSON string");
            g_free(a);
            g_free(b);
        }
        CU_ASSERT_TRUE(ok);
        g_free(want);
        g_free(back);
        g_free(json);
    }
    g_rand_free(rng);
}

int main(void) {
    static const struct {
        const char *name;
        CU_TestFunc fn;
    } tests[] = {
        {"the test's reader refuses what is not JSON", test_reader_is_strict},
        {"plain text, quotes, backslashes", test_plain_quotes_backslashes},
        {"control characters", test_control_characters},
        {"valid UTF-8 passes unchanged", test_valid_utf8_unchanged},
        {"invalid UTF-8 becomes U+FFFD", test_invalid_utf8_replaced},
        {"random byte strings give valid JSON", test_random_bytes},
    };
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite = CU_add_suite("json", NULL, NULL);
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
