/*
 * rma_halo_racy.c - the racy twin of rma_halo.c: one fence per step where
 * two are needed.
 *
 * The same 1-D halo exchange, without the second MPI_Win_fence of each step
 * (the one after the update).  It looks redundant: the fence at [FENCE]
 * already completed the puts.  But that fence also opens the next epoch, in
 * which the neighbours' puts of the next step, at [PUTL] and [PUTR], may
 * reach this rank's ghost cells while it is still reading them at [READ].
 * MPI 3.1 11.5.1: an RMA operation started after a fence returns may access
 * the target window as soon as the target has called that fence, and it is
 * complete at the target only at the target's next fence; 11.7: a location
 * updated by a put must not be accessed by a load until the put is complete
 * at the target.  A neighbour that runs a step ahead changes a ghost cell
 * under the reader's feet: the result depends on timing.
 *
 * Run:
 *   ./ordex run     -n 4 examples/rma_halo_racy.c [N] [steps]
 *   ./ordex explore -n 4 examples/rma_halo_racy.c [N] [steps]
 *
 * Expected ordex verdict (run and explore, any n >= 2): 2 errors of kind
 * data_race, exit status 1: "MPI_Put by rank 0 at [PUTR] (target) and a load
 * by rank 1 at [READ] conflict" on rank 1's left ghost (bytes 0-7 of its
 * window), and the same for [PUTL] on rank 0's right ghost; each names the
 * fence at [FENCE] as the epoch of the put.  ordex applies puts at the
 * fence that completes them, so its stdout is that of rma_halo.c; a real
 * MPI may print other sums.
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
            next[i] = (u[i - 1] + 2 * u[i] + u[i + 1]) / 4; /* [READ] */
        for (int i = 1; i <= len; i++)
            u[i] = next[i];
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
