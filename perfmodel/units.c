/*
 * units.c - sizes, times and bandwidths as people write them (see units.h).
 *
 * The number is scanned here rather than by strtod: strtod also takes
 * hexadecimal, "inf", "nan" and "infinity", none of which is a quantity.
 * Times and bandwidths then become doubles; sizes are computed exactly in
 * integers, so that "18446744073709551615" and "16383.999999999999999TiB"
 * are judged on their true values rather than on a rounded double.
 */
#include "perfmodel/units.h"

#include <glib.h>
#include <math.h>
#include <string.h>

typedef struct unit {
    const char *name;
    int exp10; /* decimal scale, applied to the number's exponent so it stays exact */
    int exp2;  /* binary scale: 10 per KiB, -3 for bits */
} unit;

static const unit size_units[] = {
    {"B", 0, 0},    {"KB", 3, 0},   {"kB", 3, 0},   {"MB", 6, 0},   {"GB", 9, 0}, {"TB", 12, 0},
    {"KiB", 0, 10}, {"MiB", 0, 20}, {"GiB", 0, 30}, {"TiB", 0, 40}, {"K", 0, 10}, {"k", 0, 10},
    {"M", 0, 20},   {"G", 0, 30},   {"T", 0, 40},   {NULL, 0, 0},
};

static const unit time_units[] = {
    {"s", 0, 0}, {"ms", -3, 0}, {"us", -6, 0}, {"\xc2\xb5s", -6, 0}, {"ns", -9, 0}, {NULL, 0, 0},
};

static const unit bandwidth_units[] = {
    {"Bps", 0, 0},    {"KBps", 3, 0},   {"kBps", 3, 0},   {"MBps", 6, 0},   {"GBps", 9, 0},
    {"TBps", 12, 0},  {"KiBps", 0, 10}, {"MiBps", 0, 20}, {"GiBps", 0, 30}, {"TiBps", 0, 40},
    {"bps", 0, -3},   {"Kbps", 3, -3},  {"kbps", 3, -3},  {"Mbps", 6, -3},  {"Gbps", 9, -3},
    {"Tbps", 12, -3}, {NULL, 0, 0},
};

/* Beyond this an exponent only says "zero" or "too large"; saturating keeps
 * the arithmetic on it from overflowing. */
#define EXP_LIMIT 100000

/* A scanned number: [sign] digits [. digits] [e [sign] digits]. */
typedef struct number {
    const char *start, *end; /* the whole number, sign included */
    const char *mant_end;    /* end of the digits and point, before any exponent */
    bool negative;
    const char *int_digits, *frac_digits; /* first digit of each part */
    size_t nint, nfrac;
    long exp; /* saturated at +-EXP_LIMIT */
} number;

static size_t count_digits(const char *p) {
    size_t n = 0;
    while (g_ascii_isdigit(p[n]))
        n++;
    return n;
}

/* Scans a number at p; false when there is none (no digit). */
static bool scan_number(const char *p, number *n) {
    memset(n, 0, sizeof *n);
    n->start = p;
    if (*p == '+' || *p == '-')
        n->negative = *p++ == '-';
    n->int_digits = p;
    n->nint = count_digits(p);
    p += n->nint;
    n->frac_digits = p;
    if (*p == '.') {
        n->frac_digits = ++p;
        n->nfrac = count_digits(p);
        p += n->nfrac;
    }
    if (n->nint + n->nfrac == 0)
        return false;
    n->mant_end = p;
    /* An "e" not followed by digits is left to be read as a unit. */
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        bool neg = false;
        if (*q == '+' || *q == '-')
            neg = *q++ == '-';
        if (g_ascii_isdigit(*q)) {
            long e = 0;
            for (; g_ascii_isdigit(*q); q++)
                if (e < EXP_LIMIT)
                    e = e * 10 + (*q - '0');
            if (e > EXP_LIMIT)
                e = EXP_LIMIT;
            n->exp = neg ? -e : e;
            p = q;
        }
    }
    n->end = p;
    return true;
}

/* Splits text into its number and unit (NULL when there is none). */
static bool split(const char *text, number *n, char **unit_out, char **problem) {
    const char *p = text;
    while (g_ascii_isspace(*p))
        p++;
    if (*p == '\0') {
        *problem = g_strdup_printf("empty value: \"%s\"", text);
        return false;
    }
    if (!scan_number(p, n)) {
        const char *w = p + (*p == '+' || *p == '-');
        bool nonfinite =
            g_ascii_strncasecmp(w, "inf", 3) == 0 || g_ascii_strncasecmp(w, "nan", 3) == 0;
        *problem =
            g_strdup_printf("%s: \"%s\"", nonfinite ? "not a finite number" : "not a number", text);
        return false;
    }
    p = n->end;
    while (g_ascii_isspace(*p))
        p++;
    char *u = g_strdup(p);
    g_strchomp(u);
    if (*u == '\0') {
        g_free(u);
        u = NULL;
    }
    *unit_out = u;
    return true;
}

/* Joins the unit names for messages: "s, ms, us or ns".  The aliases
 * (lower-case k, µ) stay out of the list to keep it short. */
static char *unit_names(const unit *units) {
    GPtrArray *names = g_ptr_array_new();
    for (int i = 0; units[i].name; i++)
        if (units[i].name[0] != 'k' && units[i].name[0] != '\xc2')
            g_ptr_array_add(names, (gpointer)units[i].name);
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < names->len; i++)
        g_string_append_printf(s, "%s%s", i == 0 ? "" : (i + 1 == names->len ? " or " : ", "),
                               (const char *)g_ptr_array_index(names, i));
    g_ptr_array_free(names, TRUE);
    return g_string_free(s, FALSE);
}

/* The unit named u, or NULL after setting *problem. */
static const unit *find_unit(const char *u, const unit *units, const char *kind, const char *text,
                             char **problem) {
    for (int i = 0; units[i].name; i++)
        if (strcmp(units[i].name, u) == 0)
            return &units[i];
    char *names = unit_names(units);
    *problem = g_strdup_printf("unknown %s unit \"%s\" in \"%s\" (use %s)%s", kind, u, text, names,
                               strchr(text, '#') ? "; comments must be on lines of their own" : "");
    g_free(names);
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Times and bandwidths                                                    */

/* The double nearest to the number times 10^exp10, times 2^exp2: the
 * decimal scale goes into the exponent that strtod reads, so "1.2us" gives
 * the double nearest to 1.2e-6 (1.2 * 1e-6 would be off by an ulp, and
 * tests compare hand-computed times exactly). */
static double real_value(const number *n, int exp10, int exp2) {
    char *t = g_strdup_printf("%.*se%ld", (int)(n->mant_end - n->start), n->start, n->exp + exp10);
    double v = g_ascii_strtod(t, NULL);
    g_free(t);
    return ldexp(v, exp2);
}

/* Common body of the time and bandwidth parsers.  kind names the quantity
 * in messages; example is a value with a unit, for the "missing unit" one. */
static bool parse_real(const char *text, const unit *units, const char *kind, const char *example,
                       double *out, char **problem) {
    number n;
    char *u = NULL;
    if (!split(text, &n, &u, problem))
        return false;
    bool ok = false;
    double v;
    if (u == NULL) {
        v = real_value(&n, 0, 0);
        if (v == 0) {
            *out = v;
            ok = true;
        } else {
            char *names = unit_names(units);
            *problem = g_strdup_printf("missing %s unit in \"%s\" (write e.g. %s; units: %s)", kind,
                                       text, example, names);
            g_free(names);
        }
        goto out;
    }
    /* "GB/s" is a common spelling of "GBps". */
    if (units == bandwidth_units && g_str_has_suffix(u, "/s")) {
        u[strlen(u) - 2] = '\0';
        char *t = g_strconcat(u, "ps", NULL);
        g_free(u);
        u = t;
    }
    const unit *unit = find_unit(u, units, kind, text, problem);
    if (!unit)
        goto out;
    v = real_value(&n, unit->exp10, unit->exp2);
    if (!isfinite(v)) {
        *problem = g_strdup_printf("too large: \"%s\"", text);
        goto out;
    }
    *out = v;
    ok = true;
out:
    g_free(u);
    return ok;
}

bool pm_parse_time(const char *text, double *seconds, char **problem) {
    return parse_real(text, time_units, "time", "5us", seconds, problem);
}

bool pm_parse_bandwidth(const char *text, double *bytes_per_second, char **problem) {
    return parse_real(text, bandwidth_units, "bandwidth", "10GBps", bytes_per_second, problem);
}

/* ---------------------------------------------------------------------- */
/* Sizes                                                                   */

typedef unsigned __int128 u128;

typedef enum { SIZE_OK, SIZE_NOT_WHOLE, SIZE_TOO_LARGE } size_status;

/* The exact value of digits * 10^e * 2^exp2, where digits (len > 0) has no
 * leading or trailing zero and 0 <= exp2 <= 40. */
static size_status exact_size(const char *digits, size_t len, int64_t e, int exp2, uint64_t *out) {
    u128 v = 0;
    if (e >= 0) {
        /* digits * 10^e has len + e digits: more than 20 is past 2^64. */
        if ((int64_t)len + e > 20)
            return SIZE_TOO_LARGE;
        for (size_t i = 0; i < len; i++)
            v = v * 10 + (u128)(digits[i] - '0');
        for (int64_t i = 0; i < e; i++)
            v *= 10;
        v <<= exp2;
    } else {
        /* digits * 2^exp2 / (2^-e * 5^-e): digits is not a multiple of 10,
         * so both divisions cannot come out whole unless the binary scale
         * covers 2^-e; then what is left is a division by 5^-e <= 5^40. */
        if (exp2 + e < 0)
            return SIZE_NOT_WHOLE;
        u128 m = 1, r = 0;
        for (int64_t i = 0; i < -e; i++)
            m *= 5;
        for (size_t i = 0; i < len; i++) {
            r = r * 10 + (u128)(digits[i] - '0');
            v = v * 10 + r / m;
            r %= m;
            if (v > UINT64_MAX)
                return SIZE_TOO_LARGE;
        }
        if (r != 0)
            return SIZE_NOT_WHOLE;
        v <<= exp2 + e;
    }
    if (v > UINT64_MAX)
        return SIZE_TOO_LARGE;
    *out = (uint64_t)v;
    return SIZE_OK;
}

bool pm_parse_size(const char *text, uint64_t *bytes, char **problem) {
    number n;
    char *u = NULL;
    if (!split(text, &n, &u, problem))
        return false;
    bool ok = false;
    const unit *unit = &size_units[0]; /* bytes */
    if (u && !(unit = find_unit(u, size_units, "size", text, problem)))
        goto out;
    if (n.negative) {
        *problem = g_strdup_printf("must not be negative, got \"%s\"", text);
        goto out;
    }
    /* The significant digits, and the power of ten that scales them. */
    GString *d = g_string_sized_new(n.nint + n.nfrac);
    g_string_append_len(d, n.int_digits, (gssize)n.nint);
    g_string_append_len(d, n.frac_digits, (gssize)n.nfrac);
    int64_t e = (int64_t)n.exp - (int64_t)n.nfrac + unit->exp10;
    size_t lead = 0;
    while (lead < d->len && d->str[lead] == '0')
        lead++;
    size_t len = d->len - lead;
    while (len > 0 && d->str[lead + len - 1] == '0') {
        len--;
        e++;
    }
    uint64_t v = 0;
    size_status st = len == 0 ? SIZE_OK : exact_size(d->str + lead, len, e, unit->exp2, &v);
    g_string_free(d, TRUE);
    if (st == SIZE_NOT_WHOLE) {
        *problem = g_strdup_printf("not a whole number of bytes: \"%s\"", text);
    } else if (st == SIZE_TOO_LARGE) {
        *problem = g_strdup_printf("too large: \"%s\" (at most %" G_GUINT64_FORMAT " bytes)", text,
                                   (guint64)UINT64_MAX);
    } else {
        *bytes = v;
        ok = true;
    }
out:
    g_free(u);
    return ok;
}
