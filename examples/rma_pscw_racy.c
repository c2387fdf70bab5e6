/*
 * rma_pscw_racy.c - the racy twin of rma_pscw.c: the next exposure epoch
 * opened before the inbox is read.
 *
 * The same pipeline, "optimised": to overlap the transfer of item k+1 with
 * the work on item k, each rank posts its inbox for the next item (at
 * [POST]) right after MPI_Win_wait returned item k, and only then reads
 * item k out of the inbox (at [READ]).  The predecessor's MPI_Win_start may
 * match that post at once, and its put of item k+1 (at [PUT]) may then land
 * in the inbox while item k is being read.  MPI 3.1 11.5.2: once the target
 * has called MPI_Win_post, the origin's operations of the matching access
 * epoch may access its window, and they are complete at the target only
 * when its MPI_Win_wait returns; 11.7: a location updated by a put must not
 * be accessed by a load until the put is complete at the target.  A rank
 * whose predecessor runs ahead transforms a mix of two items.  Double
 * buffering (two inboxes, used in turn) would make the overlap correct.
 *
 * Run:
 *   ./ordex run     -n 4 examples/rma_pscw_racy.c [M]
 *   ./ordex explore -n 4 examples/rma_pscw_racy.c [M]
 *
 * Expected ordex verdict (run and explore, n >= 2, M >= 2): 1 error of kind
 * data_race, exit status 1: "MPI_Put by rank 0 at [PUT] (target) and a load
 * by rank 1 at [READ] conflict" on bytes 0-63 of rank 1's window, with no
 * happens-before between the load and the put (ordex reports each pair of
 * lines once).  ordex applies a put at the MPI_Win_complete that completes
 * it, which waits for the post, so its stdout is that of rma_pscw.c; a real
 * MPI may print other checksums.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define L 8

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int items = argc > 1 ? atoi(argv[1]) : 4;

    long inbox[L] = {0};
    MPI_Win win;
    MPI_Win_create(inbox, sizeof inbox, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Group world, pred, succ;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int p = rank - 1, s = rank + 1;
    MPI_Group_incl(world, rank > 0 ? 1 : 0, &p, &pred);
    MPI_Group_incl(world, rank < size - 1 ? 1 : 0, &s, &succ);

    long item[L];
    if (rank > 0 && items > 0)
        MPI_Win_post(pred, 0, win); /* the inbox is open for item 0 */
    for (int k = 0; k < items; k++) {
        if (rank == 0) {
            for (int i = 0; i < L; i++)
                item[i] = 100 * k + i;
        } else {
            MPI_Win_wait(win); /* [WAIT] */
            /* Open the inbox for item k+1 at once, so that its transfer
             * overlaps the work on item k... while the inbox still holds
             * item k. */
            if (k + 1 < items)
                MPI_Win_post(pred, 0, win); /* [POST] */
            for (int i = 0; i < L; i++)
                item[i] = 3 * inbox[i] + rank; /* [READ] */
        }
        if (rank < size - 1) {
            MPI_Win_start(succ, 0, win);
            MPI_Put(item, L, MPI_LONG, rank + 1, 0, L, MPI_LONG, win); /* [PUT] */
            MPI_Win_complete(win);                                     /* [COMPLETE] */
        } else {
            long sum = 0;
            for (int i = 0; i < L; i++)
                sum = sum * 7 + item[i];
            printf("rank %d: item %d checksum %ld\n", rank, k, sum);
        }
    }
    printf("rank %d: passed %d items\n", rank, items);
    MPI_Group_free(&pred);
    MPI_Group_free(&succ);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
