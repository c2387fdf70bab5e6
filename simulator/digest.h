/*
 * digest.h - how the simulator describes its state for hashing (see
 * sim_digest_rank in sim.h): a feed that takes bytes.  A header of its own
 * so that the modules that keep state of their own (attributes, info
 * objects, error handlers) can describe it without the simulator core.
 */
#ifndef ORDEX_SIM_DIGEST_H
#define ORDEX_SIM_DIGEST_H

#include <stddef.h>

typedef void (*sim_digest_feed)(void *user, const void *data, size_t len);

#endif
