/*
 * rma_acc.c - accumulate operations from every rank into rank 0's window
 * (correct program).
 *
 * Window of rank 0: long w[8].  Under fences every rank r (of n) does
 *   MPI_Accumulate(r+1, MPI_SUM)      into w[0]   -> n(n+1)/2
 *   MPI_Accumulate(r*7 % 5, MPI_MAX)  into w[1]   -> the largest of them
 *   MPI_Accumulate(r, MPI_MIN)        into w[2]   (starts at 100) -> 0
 *   MPI_Accumulate({r,r}, MPI_BOR)    into w[3..4] as a 2-element vector
 *   MPI_Accumulate(42, MPI_REPLACE)   into w[5]   (all write 42) -> 42
 *   MPI_Get_accumulate(MPI_NO_OP)     of w[6] (= 1000): each fetches 1000
 * Then, under MPI_Win_lock_all:
 *   MPI_Fetch_and_op(+1, MPI_SUM) on w[7] twice per rank, completed by
 *   MPI_Win_flush and by MPI_Win_flush_local (the result is there after
 *   either, or the rank prints "not ready"): the 2n values fetched are
 *   0 .. 2n-1 (rank 0 checks after a gather);
 *   MPI_Compare_and_swap(0 -> r+1) on w[6] after rank 0 reset it to 0 under an
 *   exclusive lock: exactly one rank sees 0 and wins.
 *   MPI_Get_accumulate(MPI_SUM, 1) on w[0] (MPI_Win_flush_all): fetched values
 *   are distinct;
 *   MPI_Raccumulate(r, MPI_SUM) into w[3] and MPI_Rget_accumulate(MPI_NO_OP)
 *   of w[5], completed by MPI_Waitall: the fetch is 42;
 *   MPI_Win_flush_local_all before MPI_Win_unlock_all.
 * Rank 0 prints
 *   sum S max M min m bor B replace R noop N fop-ok Y cas-winners W gacc-ok Z
 * and every rank "rank r: noop fetched 1000".  ordex must report no error and
 * print exactly that in every ordering (tests/e2e/test_rma.c).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int distinct(const long *v, int n, long lo) {
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (v[i] == v[j])
                return 0;
    for (int i = 0; i < n; i++)
        if (v[i] < lo || v[i] >= lo + n)
            return 0;
    return 1;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long w[8] = {0, 0, 100, 0, 0, 0, 1000, 0};
    MPI_Win win;
    MPI_Win_create(w, rank == 0 ? sizeof w : 0, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_LONG, &two);
    MPI_Type_commit(&two);

    long one = rank + 1, mx = rank * 7 % 5, mn = rank, bor[2] = {rank, rank << 4}, rep = 42;
    long fetched = -1;
    MPI_Win_fence(0, win);
    MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
    MPI_Accumulate(&mx, 1, MPI_LONG, 0, 1, 1, MPI_LONG, MPI_MAX, win);
    MPI_Accumulate(&mn, 1, MPI_LONG, 0, 2, 1, MPI_LONG, MPI_MIN, win);
    MPI_Accumulate(bor, 2, MPI_LONG, 0, 3, 1, two, MPI_BOR, win);
    MPI_Accumulate(&rep, 1, MPI_LONG, 0, 5, 1, MPI_LONG, MPI_REPLACE, win);
    MPI_Get_accumulate(NULL, 0, MPI_LONG, &fetched, 1, MPI_LONG, 0, 6, 1, MPI_LONG, MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    printf("rank %d: noop fetched %ld\n", rank, fetched);
    long bor0 = w[3]; /* rank 0's: before the Raccumulates into it */

    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        w[6] = 0;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    long tickets[2], inc = 1, cas_old = -1, cas_new = rank + 1, cas_cmp = 0, gacc = -1;
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < 2; i++) {
        tickets[i] = -1;
        MPI_Fetch_and_op(&inc, &tickets[i], MPI_LONG, 0, 7, MPI_SUM, win);
        if (i == 0)
            MPI_Win_flush(0, win);
        else
            MPI_Win_flush_local(0, win);
        if (tickets[i] < 0)
            printf("rank %d: ticket %d not ready after the flush\n", rank, i);
    }
    MPI_Compare_and_swap(&cas_new, &cas_cmp, &cas_old, MPI_LONG, 0, 6, win);
    MPI_Get_accumulate(&inc, 1, MPI_LONG, &gacc, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win);
    MPI_Win_flush_all(win);
    if (gacc < 0 || cas_old < 0)
        printf("rank %d: fetches not ready after MPI_Win_flush_all\n", rank);
    long racc = rank, rfetch = -1;
    MPI_Request reqs[2];
    MPI_Raccumulate(&racc, 1, MPI_LONG, 0, 3, 1, MPI_LONG, MPI_SUM, win, &reqs[0]);
    MPI_Rget_accumulate(NULL, 0, MPI_LONG, &rfetch, 1, MPI_LONG, 0, 5, 1, MPI_LONG, MPI_NO_OP, win,
                        &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    printf("rank %d: rget_accumulate fetched %ld\n", rank, rfetch);
    MPI_Win_flush_local_all(win);
    MPI_Win_unlock_all(win);

    long mine[4] = {tickets[0], tickets[1], cas_old == 0, gacc};
    long *all = rank == 0 ? malloc(sizeof mine * (size_t)size) : NULL;
    MPI_Gather(mine, 4, MPI_LONG, all, 4, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        long *t = malloc(sizeof(long) * 2 * (size_t)size), *g = malloc(sizeof(long) * (size_t)size);
        int winners = 0;
        for (int r = 0; r < size; r++) {
            t[2 * r] = all[4 * r];
            t[2 * r + 1] = all[4 * r + 1];
            winners += (int)all[4 * r + 2];
            g[r] = all[4 * r + 3];
        }
        long base = (long)size * (size + 1) / 2;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        printf("sum %ld max %ld min %ld bor %ld/%ld replace %ld counter %ld fop-ok %s "
               "cas-winners %d gacc-ok %s\n",
               base, w[1], w[2], bor0, w[4], w[5], w[7], distinct(t, 2 * size, 0) ? "yes" : "no",
               winners, distinct(g, size, base) ? "yes" : "no");
        printf("raccumulate %ld\n", w[3] - bor0);
        printf("final sum %ld\n", w[0]);
        MPI_Win_unlock(0, win);
        free(t);
        free(g);
        free(all);
    }
    MPI_Type_free(&two);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
