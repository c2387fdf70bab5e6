/*
 * rma_pscw.c - a pipeline synchronised with MPI_Win_post / MPI_Win_start /
 * MPI_Win_complete / MPI_Win_wait (correct program; rma_pscw_racy.c is its
 * racy twin, which posts for the next item before reading the current one).
 *
 * M items (argv[1], default 4) of L = 8 integers flow from rank 0 through
 * every rank to the last one.  Each rank exposes an inbox in its window:
 * for every item it posts to its predecessor (MPI_Win_post), waits until
 * the item is there (MPI_Win_wait), transforms it (x -> 3x + rank), and
 * puts it into its successor's inbox inside an access epoch
 * (MPI_Win_start, MPI_Put, MPI_Win_complete).  Rank 0 makes the items;
 * the last rank prints a checksum of each.  Item k's value does not depend
 * on how the ranks interleave: each inbox is written by one put per epoch
 * and read only after MPI_Win_wait closed the epoch.
 *
 * Run:
 *   ./ordex run     -n 4 examples/rma_pscw.c [M]
 *   ./ordex explore -n 4 examples/rma_pscw.c [M]
 *
 * Expected ordex verdict: no error.  MPI_Win_complete at [COMPLETE] waits
 * for the successor's MPI_Win_post at [POST] of the same item, and
 * MPI_Win_wait at [WAIT] for the predecessor's MPI_Win_complete.
 *
 * Expected stdout (lines may interleave):
 *   rank L: item k checksum C                 (last rank, one line per item)
 *   rank q: passed M items                    (one line per rank)
 * Recorded with Open MPI in expected/rma_pscw.n*.out.
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
    for (int k = 0; k < items; k++) {
        if (rank == 0) {
            for (int i = 0; i < L; i++)
                item[i] = 100 * k + i;
        } else {
            MPI_Win_post(pred, 0, win); /* [POST] */
            MPI_Win_wait(win);          /* [WAIT] */
            for (int i = 0; i < L; i++)
                item[i] = 3 * inbox[i] + rank;
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
