/*
 * rma_halo.c - 1-D halo exchange with MPI_Put and MPI_Win_fence (correct
 * program; rma_halo_racy.c is its racy twin, with one fence per step).
 *
 * N cells (argv[1], default 64) are split into contiguous blocks; each rank's
 * block sits in a window with one ghost cell on either side.  Every step is
 * one fence epoch: each rank puts its first cell into the right ghost of its
 * left neighbour and its last cell into the left ghost of its right neighbour
 * (MPI_PROC_NULL at the ends, where the ghosts hold the fixed boundary
 * values), the closing fence completes the puts, and the rank updates
 *   u'[i] = (u[i-1] + 2 u[i] + u[i+1]) / 4     (integers, exactly)
 * After S steps (argv[2], default 20) rank 0 gathers the sum with MPI_Reduce.
 * The values are integers, so the output does not depend on the number of
 * ranks either.
 *
 * Run:
 *   ./ordex run     -n 4 examples/rma_halo.c [N] [steps]
 *   ./ordex explore -n 4 examples/rma_halo.c [N] [steps]
 *
 * Expected ordex verdict: no error (run and explore).  The puts of one epoch
 * touch distinct ghost cells, and no rank reads or writes its window between
 * the fence that opens an epoch and the one that closes it.
 *
 * Expected stdout (defaults; lines may interleave):
 *   rank q: cells [A, B) sum S               (one line per rank)
 *   rma_halo: N=64 steps=20 total=T          (rank 0)
 * Recorded with Open MPI in expected/rma_halo.n*.out.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    if (n < size)
        n = size;
    int lo = (int)((long)rank * n / size), hi = (int)((long)(rank + 1) * n / size);
    int len = hi - lo;

    /* u[0] and u[len+1] are the ghosts. */
    long *u = calloc((size_t)len + 2, sizeof(long));
    long *next = calloc((size_t)len + 2, sizeof(long));
    for (int i = 1; i <= len; i++) {
        int g = lo + i - 1; /* global cell index */
        u[i] = (g % 7) * 1000 + g;
    }
    u[0] = 100000;  /* fixed left boundary (kept where no neighbour writes) */
    u[len + 1] = 0; /* fixed right boundary */
    MPI_Win win;
    MPI_Win_create(u, (MPI_Aint)((len + 2) * sizeof(long)), sizeof(long), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

    MPI_Win_fence(MPI_MODE_NOPRECEDE, win); /* [FENCE0] */
    for (int s = 0; s < steps; s++) {
        /* My first cell goes to the left neighbour's right ghost, my last
         * to the right neighbour's left ghost (displacement 0). */
        if (left != MPI_PROC_NULL) {
            int left_len = (int)((long)rank * n / size) - (int)((long)left * n / size);
            MPI_Put(&u[1], 1, MPI_LONG, left, left_len + 1, 1, MPI_LONG, win); /* [PUTL] */
        }
        MPI_Put(&u[len], 1, MPI_LONG, right, 0, 1, MPI_LONG, win); /* [PUTR] */
        MPI_Win_fence(0, win);                                     /* [FENCE] */
        for (int i = 1; i <= len; i++)
            next[i] = (u[i - 1] + 2 * u[i] + u[i + 1]) / 4;
        for (int i = 1; i <= len; i++)
            u[i] = next[i];
        /* The ghosts were read above: the next epoch's puts into them must
         * wait for every rank to get here. */
        MPI_Win_fence(0, win);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    long sum = 0;
    for (int i = 1; i <= len; i++)
        sum += u[i];
    printf("rank %d: cells [%d, %d) sum %ld\n", rank, lo, hi, sum);
    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("rma_halo: N=%d steps=%d total=%ld\n", n, steps, total);
    MPI_Win_free(&win);
    free(u);
    free(next);
    MPI_Finalize();
    return 0;
}
