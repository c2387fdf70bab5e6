/*
 * comm_internal.h - what the files of the comm module (comm.c, group.c,
 * topo.c) share: member lists, and the group table that sim_comm_init and
 * sim_comm_fini set up and take down.  Private to simulator/: comm.h is the
 * module's interface.
 */
#ifndef ORDEX_SIM_COMM_INTERNAL_H
#define ORDEX_SIM_COMM_INTERNAL_H

#include <glib.h>

/* ---- member lists (comm.c): world ranks in comm or group rank order ---- */

/* The world rank -> rank + 1 table of a member list, or NULL when none is
 * needed (identity maps and lists of at most one member). */
GHashTable *sim_members_index(int size, const int *members);
/* The rank of world_rank in the list, -1 when not a member; rank_of is
 * sim_members_index's table for it. */
int sim_members_rank(GHashTable *rank_of, int size, const int *members, int world_rank);
/* MPI_IDENT (same order), MPI_SIMILAR (same set) or MPI_UNEQUAL; b_rank_of
 * indexes mb. */
int sim_members_compare(int na, const int *ma, int nb, const int *mb, GHashTable *b_rank_of);

/* ---- the group table (group.c) ---- */

/* Creates the empty table; sim_comm_init calls it. */
void sim_group_table_init(void);
/* Frees every group and the table (nothing when there is none). */
void sim_group_table_fini(void);

#endif
