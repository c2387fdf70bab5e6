/*
 * mergesort.c - prediction benchmark: parallel merge sort of N integers.
 * Rank 0 makes the data (a fixed pseudo-random sequence, before the timed
 * region); then
 *   - MPI_Scatterv gives each rank a contiguous share (N / n, the first
 *     N % n ranks one more),
 *   - each rank sorts its share (bottom-up merge sort),
 *   - a binary tree merges the sorted shares: at level k = 1, 2, 4, ...
 *     rank r with r % 2k == k sends its run (its length, then the data) to
 *     rank r - k, which merges it with its own; rank 0 ends with everything.
 *
 *   mergesort [N]                    default 8388608
 *
 * Timed region: MPI_Barrier, t0 = MPI_Wtime(), scatter + sort + merge,
 * MPI_Barrier; rank 0 prints whether the result is sorted, a checksum, and
 * "elapsed_s <seconds>" (simulated time under a simulator).  Plain MPI:
 * builds unchanged with mpicc, smpicc and ordexcc.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Merges a[0..na) and b[0..nb) into out. */
static void merge(const int *a, long na, const int *b, long nb, int *out) {
    long i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = (b[j] < a[i]) ? b[j++] : a[i++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

/* Sorts a[0..n) (bottom-up merge sort with scratch space tmp[0..n)).
 * Returns the array that holds the result (a or tmp). */
static int *sort_ints(int *a, int *tmp, long n) {
    int *src = a, *dst = tmp;
    for (long width = 1; width < n; width *= 2) {
        for (long lo = 0; lo < n; lo += 2 * width) {
            long mid = lo + width < n ? lo + width : n;
            long hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
        }
        int *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 8388608L;
    if (n < size)
        n = size;

    int *counts = malloc(sizeof(int) * (size_t)size);
    int *displs = malloc(sizeof(int) * (size_t)size);
    for (int r = 0, off = 0; r < size; r++) {
        counts[r] = (int)(n / size + (r < n % size ? 1 : 0));
        displs[r] = off;
        off += counts[r];
    }
    int *all = NULL;
    if (rank == 0) {
        all = malloc(sizeof(int) * (size_t)n);
        unsigned x = 12345u;
        for (long i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            all[i] = (int)((x >> 1) % 1000000007u);
        }
    }
    /* Rank r ends up with the shares of ranks r .. r + span - 1, where span
     * is the lowest set bit of r (every rank, for rank 0). */
    int span = rank == 0 ? size : (rank & -rank);
    long cap = 0;
    for (int r = rank; r < rank + span && r < size; r++)
        cap += counts[r];
    int *mine = malloc(sizeof(int) * (size_t)cap);
    int *tmp = malloc(sizeof(int) * (size_t)cap);
    int *other = malloc(sizeof(int) * (size_t)cap);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Scatterv(all, counts, displs, MPI_INT, mine, counts[rank], MPI_INT, 0, MPI_COMM_WORLD);
    long len = counts[rank];
    int *run = sort_ints(mine, tmp, len);
    int *spare = run == mine ? tmp : mine;
    for (int k = 1; k < size; k *= 2) {
        if (rank % (2 * k) == k) {
            int l = (int)len;
            MPI_Send(&l, 1, MPI_INT, rank - k, 10, MPI_COMM_WORLD);
            MPI_Send(run, l, MPI_INT, rank - k, 11, MPI_COMM_WORLD);
            break;
        }
        if (rank % (2 * k) == 0 && rank + k < size) {
            int l;
            MPI_Recv(&l, 1, MPI_INT, rank + k, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(other, l, MPI_INT, rank + k, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            merge(run, len, other, l, spare);
            int *t = run;
            run = spare;
            spare = t;
            len += l;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - t0;

    if (rank == 0) {
        int sorted = len == n;
        unsigned long sum = 0;
        for (long i = 0; i < len; i++) {
            if (i > 0 && run[i - 1] > run[i])
                sorted = 0;
            sum = sum * 31 + (unsigned)run[i];
        }
        printf("mergesort: ranks=%d n=%ld sorted=%s checksum=%lu\n", size, n,
               sorted ? "yes" : "no", sum);
        printf("elapsed_s %.6f\n", elapsed);
    }
    free(all);
    free(mine);
    free(tmp);
    free(other);
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
