/*
 * lu.c - block LU factorisation (no pivoting) with data-driven panel receives.
 *
 * A diagonally dominant N x N matrix (N = NB * bs, NB = 8 block columns, block size
 * bs = argv[1], default 4) is factorised in place into L (unit lower) and U.  Block
 * column j lives on rank j % size.  In step k the owner of block column k factorises
 * that panel and sends it (MPI_Isend, line 112) to every rank that owns a column
 * right of k; each rank then updates its own columns j > k with it.  Ranks take
 * messages in ARRIVAL order (MPI_ANY_SOURCE, MPI_ANY_TAG, line 53): a panel of a
 * later step from another rank may arrive first, and rank 0 may also get the final
 * columns that other ranks send it (line 150); each message is filed by its tag
 * and the updates are still applied in step order, so the result is independent of
 * the arrival order and of the number of ranks (same floating-point operations).
 *
 * Run:
 *   ./ordex run     -n 4 examples/lu.c [bs]
 *   ./ordex explore -n 4 examples/lu.c [bs]
 *   mpicc -o lu examples/lu.c && mpiexec -n 4 ./lu [bs]
 *
 * Expected ordex verdict: no error (run and explore, any n, with or without
 * buffering: panels are sent with MPI_Isend and completed at the end, and the
 * blocking sends of the gather are matched by rank 0's wildcard receive, which it
 * keeps posting until it has everything).
 *
 * Expected stdout (default bs=4, N=32; lines may interleave):
 *   rank r: owns B block columns, received P panels     (one line per rank)
 *   lu: N=32 sum(L)=-0.009133 sum(U)=1116.646128 max|A-LU| small: yes     (rank 0)
 * That line is the same for every number of ranks.  n=4: ranks 0..3 own 2 block
 * columns each and receive 3, 4, 5, 6 panels.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 8 /* block columns; tags 0..NB-1 are panels, NB+j is final column j */

static double gen(int i, int j, int n) {
    return i == j ? n + 1.0 + i % 5 : ((i * 7 + j * 3) % 11 - 5) / 10.0;
}

/* Does rank q own a block column right of k? */
static int needs(int q, int k, int size) {
    return k + 1 + ((q - k - 1) % size + size) % size < NB; /* first such column < NB */
}

/* Receive the next message from anybody and file it: a panel (tag k < NB) goes to
   pan[k]; a finished block column j (tag NB + j, rank 0 only) goes into a. */
static void receive_any(double *a, double **pan, int *have, double *msg, int n, int bs, int *panels,
                        int *gathered) {
    MPI_Status st;
    int cnt;
    MPI_Recv(msg, n * bs, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, // [ANY]
             MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    if (st.MPI_TAG < NB) {
        memcpy(pan[st.MPI_TAG], msg, (size_t)cnt * sizeof(double));
        have[st.MPI_TAG] = 1;
        (*panels)++;
    } else {
        int j0 = (st.MPI_TAG - NB) * bs;
        for (int i = 0; i < n; i++) {
            memcpy(&a[i * n + j0], &msg[i * bs], (size_t)bs * sizeof(double));
        }
        (*gathered)++;
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int bs = argc > 1 ? atoi(argv[1]) : 4;
    bs = bs < 1 ? 1 : bs > 64 ? 64 : bs;
    int n = NB * bs, owned = 0, panels = 0, gathered = 0;

    double *a = malloc((size_t)n * n * sizeof(double)); /* row-major; my columns only */
    double *pan[NB];                                    /* panel k: rows k*bs.., bs cols */
    double *msg = malloc((size_t)n * bs * sizeof(double));
    int have[NB] = {0};
    MPI_Request req[NB * NB];
    MPI_Status sts[NB * NB];
    int nreq = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            a[i * n + j] = gen(i, j, n);
        }
    }
    for (int k = 0; k < NB; k++) {
        pan[k] = malloc((size_t)(n - k * bs) * bs * sizeof(double));
        owned += k % size == rank;
    }

    for (int k = 0; k < NB; k++) {
        int c0 = k * bs, rows = n - c0;
        if (k % size == rank) { /* factorise panel k (unblocked, no pivoting) */
            for (int c = c0; c < c0 + bs; c++) {
                for (int i = c + 1; i < n; i++) {
                    a[i * n + c] /= a[c * n + c];
                    for (int j = c + 1; j < c0 + bs; j++) {
                        a[i * n + j] -= a[i * n + c] * a[c * n + j];
                    }
                }
            }
            for (int i = 0; i < rows; i++) {
                memcpy(&pan[k][i * bs], &a[(c0 + i) * n + c0], (size_t)bs * sizeof(double));
            }
            have[k] = 1;
            for (int q = 0; q < size; q++) {
                if (q != rank && needs(q, k, size)) {
                    MPI_Isend(pan[k], rows * bs, MPI_DOUBLE, q, k, // [PANEL]
                              MPI_COMM_WORLD, &req[nreq++]);
                }
            }
        }
        if (!needs(rank, k, size)) {
            continue;
        }
        while (!have[k]) { /* file whatever arrives until panel k is here */
            receive_any(a, pan, have, msg, n, bs, &panels, &gathered);
        }
        const double *p = pan[k]; /* p[(i - c0) * bs + c] = L(i, c0 + c) */
        for (int jb = k + 1; jb < NB; jb++) {
            if (jb % size != rank) {
                continue;
            }
            for (int j = jb * bs; j < jb * bs + bs; j++) {
                for (int c = 0; c < bs; c++) { /* U(k, jb) = L(k,k)^-1 A(k, jb) */
                    for (int r = c + 1; r < bs; r++) {
                        a[(c0 + r) * n + j] -= p[r * bs + c] * a[(c0 + c) * n + j];
                    }
                }
                for (int i = c0 + bs; i < n; i++) { /* A(i, jb) -= L(i, k) U(k, jb) */
                    for (int c = 0; c < bs; c++) {
                        a[i * n + j] -= p[(i - c0) * bs + c] * a[(c0 + c) * n + j];
                    }
                }
            }
        }
    }
    printf("rank %d: owns %d block columns, received %d panels\n", rank, owned, panels);
    fflush(stdout);

    if (rank != 0) { /* send my finished block columns to rank 0 */
        for (int jb = rank; jb < NB; jb += size) {
            for (int i = 0; i < n; i++) {
                memcpy(&msg[i * bs], &a[i * n + jb * bs], (size_t)bs * sizeof(double));
            }
            MPI_Send(msg, n * bs, MPI_DOUBLE, 0, NB + jb, MPI_COMM_WORLD); /* [GATHER] */
        }
    } else {
        while (gathered < NB - owned) {
            receive_any(a, pan, have, msg, n, bs, &panels, &gathered);
        }
        double sl = 0.0, su = 0.0, err = 0.0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double lu = 0.0; /* (L U)(i, j) with L's unit diagonal */
                for (int m = 0; m <= (i < j ? i : j); m++) {
                    lu += (m == i ? 1.0 : a[i * n + m]) * a[m * n + j];
                }
                double d = lu - gen(i, j, n);
                err = d > err ? d : -d > err ? -d : err;
                if (j < i) {
                    sl += a[i * n + j];
                } else {
                    su += a[i * n + j];
                }
            }
        }
        printf("lu: N=%d sum(L)=%.6f sum(U)=%.6f max|A-LU| small: %s\n", n, sl, su,
               err < 1e-9 ? "yes" : "NO");
        fflush(stdout);
    }
    MPI_Waitall(nreq, req, sts);
    for (int k = 0; k < NB; k++) {
        free(pan[k]);
    }
    free(msg);
    free(a);
    MPI_Finalize();
    return 0;
}
