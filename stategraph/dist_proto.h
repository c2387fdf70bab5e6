/*
 * dist_proto.h - the messages of a distributed exploration (--distributed),
 * shared by the exploring processes (dist.c) and the MPI agent
 * (dist_agent.c).
 *
 * Every ordex process that mpiexec.mpich starts runs an agent beside it: a process
 * of its own, linked with the real MPICH, so that MPICH's symbols never meet
 * the MPI that ordex gives the explored program.  The ordex driver talks to
 * its agent over one socket (`ctl`), the process that explores over another
 * (`work`); agents talk over MPI.  The agent of rank 0 also coordinates:
 * it hands out work, ends each pass, and gathers the results.
 *
 * A message is a frame: type (u32), payload length (u32), payload.  Over
 * MPI the type is the tag and the payload the message.  Payload integers
 * are in the machine's byte order: every process runs the same ordex
 * binary (checked at the start of every pass, SGD_CHECK).
 */
#ifndef ORDEX_SG_DIST_PROTO_H
#define ORDEX_SG_DIST_PROTO_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum sgd_type {
    /* agent -> driver */
    SGD_READY = 1, /* i32 rank, i32 size */
    SGD_FAILED,    /* why (string): the agent could not start MPI */
    /* driver -> agent, each answered (SGD_ACK or as said) */
    SGD_MAILBOX,    /* fd: the mailbox (sgd_mailbox) */
    SGD_PASS_BEGIN, /* i32 pass; fd: the visited table of this rank's share */
    SGD_ACK,
    SGD_PROGRESS,    /* sgd_progress_counts -> SGD_PROGRESS (the sums known) */
    SGD_PASS_DONE,   /* sgd_pass_stats, why strings -> SGD_PASS_TOTALS */
    SGD_PASS_TOTALS, /* the totals of every rank: sgd_pass_stats, why strings, i32 stop_all */
    SGD_RESULT,      /* bytes: this rank's record (not answered) */
    SGD_GATHER,      /* rank 0 -> SGD_RESULT per other rank (i32 rank, bytes), SGD_ACK */
    SGD_QUIT,        /* the end (not answered) */
    SGD_STATUS,      /* i32: rank 0's exit status, to every driver (not answered) */
    /* exploring process -> agent */
    SGD_VISIT, /* sgd_visit header, keys -> SGD_VISIT_R (u8 seen, u8 full) */
    SGD_VISIT_R,
    SGD_WANT_WORK, /* i32 pass -> SGD_WORK (i32 choices...) or SGD_NO_WORK */
    SGD_WORK,
    SGD_NO_WORK,
    SGD_DONATE, /* i32 pass, then prefixes: u32 count, i32 choices (not answered) */
    SGD_STOP,   /* i32 all, why (not answered) */
    SGD_CHECK,  /* i32 pass, u64 identity[2] (not answered) */
    /* agent <-> agent only */
    SGD_DONATE_REQ, /* coordinator -> agent: give work away */
    SGD_STOP_ALL,   /* coordinator -> agents: i32 pass, i32 all, why */
    SGD_LOST,       /* coordinator -> agents: i32 rank stopped answering */
    SGD_GONE,       /* agent -> coordinator: its driver ended */
    SGD_HEARTBEAT,
    SGD_SHUTDOWN, /* coordinator -> agents: the exploration is over (its last message) */
    SGD_BYE,      /* agent -> coordinator: the answer to SHUTDOWN (its last message) */
    /* agent -> driver or explorer, each second while it waits for an answer:
     * the agent is alive (a silent one is taken for gone after the timeout) */
    SGD_KEEPALIVE,
    SGD_TYPES
} sgd_type;

/* Memory shared by a rank's agent and its exploring processes: the agent
 * writes what the coordinator says, the explorer reads it where it checks
 * its own limits. */
typedef struct sgd_mailbox {
    int pass;          /* the pass these flags are for */
    int stop;          /* the coordinator stopped the pass */
    int stop_all;      /* ... and the passes after it */
    int donate_wanted; /* another rank waits for work: give some away */
    char why[256];
} sgd_mailbox;

/* Progress: states, transitions, paths, and the share of the pass's tree
 * done (see explore_internal.h, done_weight_bits). */
typedef struct sgd_progress_counts {
    uint64_t counts[3];
    double done;
} sgd_progress_counts;

/* A visit of a state (sg_visited_visit) at the rank that owns it. */
typedef struct sgd_visit {
    int32_t pass, owner, nprobes, ninserts;
    /* then (nprobes + ninserts) ckpt_hash */
} sgd_visit;

/* The answer: the index of the key found (probes first, then inserts), or
 * -1 when the state is new (its inserts are made); the owner's table is
 * full. */
typedef struct sgd_visit_answer {
    int32_t which;
    int32_t full;
} sgd_visit_answer;

/* What a rank's pass did, summed by the coordinator (SGD_PASS_DONE).  Both
 * strings follow it: why the rank's pass stopped, why its copy snapshots
 * gave way to fork snapshots (each may be empty). */
typedef struct sgd_pass_stats {
    int32_t pass;
    int32_t incomplete; /* the totals: some rank's share was not explored */
    int32_t mismatch;   /* the totals: ranks loaded things at different addresses */
    int32_t stop_all;   /* this rank cannot go on: no pass after this one runs */
    uint64_t states, transitions, paths, merged, snapshots, crashed, bound_cuts, peak_rss;
} sgd_pass_stats;

/* The rank that owns a state: visits of a state and of the state with a
 * sleep set or a bound all go there (they are keyed by the bare state). */
static inline int sgd_owner(uint64_t hi, int size) {
    return (int)((hi ^ (hi >> 29)) % (uint64_t)size);
}

/* Frames over a socket.  Both return false when the peer is gone or the
 * socket failed; an interrupted call (EINTR) goes on. */
bool sgd_send(int fd, uint32_t type, const void *payload, size_t len);
/* The same, with a file descriptor passed along (SCM_RIGHTS). */
bool sgd_send_fd(int fd, uint32_t type, const void *payload, size_t len, int pass_fd);
/* Reads one frame into `payload` (resized); *got_fd is the descriptor
 * passed with it, or -1 (got_fd may be NULL: none is expected). */
bool sgd_recv(int fd, uint32_t *type, GByteArray *payload, int *got_fd);

#endif
