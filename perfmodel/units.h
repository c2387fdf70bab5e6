/*
 * units.h - the quantities that people write: sizes, times and bandwidths,
 * one grammar for platform files, --set overrides, --sweep values and every
 * size option of the command line (--eager-limit, --stack-size, ...).
 *
 * Every value is
 *
 *   [spaces] NUMBER [spaces] [UNIT] [spaces]
 *
 * NUMBER is decimal: digits with an optional fraction and exponent ("64",
 * "1.5", ".5", "2e-6"), after an optional sign.  Hexadecimal, "inf" and
 * "nan" are not numbers.  UNIT is case-sensitive:
 *
 *   size       B; K or k, M, G, T: powers of 1024 (as in `dd` and `ls`);
 *              KB or kB, MB, GB, TB: powers of 1000;
 *              KiB, MiB, GiB, TiB: powers of 1024;
 *              none: bytes.  The value must come to a whole number of bytes
 *              that fits in 64 bits ("1.5KiB" is 1536, "0.5B" is an error).
 *   time       s, ms, us (or µs), ns.
 *   bandwidth  Bps, KBps (or kBps), MBps, GBps, TBps (powers of 1000 bytes);
 *              KiBps, MiBps, GiBps, TiBps (powers of 1024 bytes);
 *              bps, Kbps (or kbps), Mbps, Gbps, Tbps (powers of 1000 bits);
 *              each also spelt with "/s" ("10GB/s").
 *
 * A time or bandwidth without a unit is an error, except 0.  Decimal scales
 * are exact: "1.2us" is the double nearest to 1.2e-6, not 1.2 * 1e-6.
 *
 * GLib only; no state.
 */
#ifndef ORDEX_PM_UNITS_H
#define ORDEX_PM_UNITS_H

#include <stdbool.h>
#include <stdint.h>

/* Parses a size into *bytes.  On failure returns false, leaves *bytes
 * alone and sets *problem (g_free it) to a phrase that quotes text, such as
 * "not a finite number: \"nan\"" or "too large: \"20EiB\" ...": empty text,
 * a sign, NaN, infinities, fractions of a byte, values past UINT64_MAX,
 * unknown units and trailing text are all refused.  text must not be NULL. */
bool pm_parse_size(const char *text, uint64_t *bytes, char **problem);

/* Parses a time into *seconds, the same way.  Negative values parse (range
 * checks are the caller's); NaN and infinities are refused. */
bool pm_parse_time(const char *text, double *seconds, char **problem);

/* Parses a bandwidth into *bytes_per_second, the same way.  Negative values
 * parse (range checks are the caller's); NaN and infinities are refused. */
bool pm_parse_bandwidth(const char *text, double *bytes_per_second, char **problem);

#endif
