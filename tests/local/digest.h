/*
 * digest.h - a digest of what a module feeds (sim_digest_feed) for the
 * unit tests: states that must be equal give equal digests, and ones that
 * must differ give different ones.
 */
#ifndef ORDEX_TESTS_LOCAL_DIGEST_H
#define ORDEX_TESTS_LOCAL_DIGEST_H

#include <glib.h>

static void digest_feed(void *user, const void *data, size_t len) {
    g_checksum_update(user, data, (gssize)len);
}

/* The SHA-256 of what fn feeds for rank (g_free). */
static inline char *digest_of(void (*fn)(int, void (*)(void *, const void *, size_t), void *),
                              int rank) {
    GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
    fn(rank, digest_feed, c);
    char *s = g_strdup(g_checksum_get_string(c));
    g_checksum_free(c);
    return s;
}

#endif
