/*
 * nbexchange.c - neighbourhood exchange benchmark, arrivals handled in any order.
 *
 * The ranks form a ring; the neighbours of rank r are r+1, r-1, r+2, r-2 (mod size,
 * without r itself and without duplicates: 1 neighbour on 2 ranks, 3 on 4 ranks,
 * 4 from 5 ranks up).  Each rank holds a vector of L unsigned values (L = argv[1],
 * default 8).  In each of ITERS = 2 iterations every rank posts one MPI_Irecv per
 * neighbour, sends its vector to every neighbour with MPI_Isend, and handles the
 * incoming vectors with MPI_Waitany (line 80) in whatever order they
 * complete, adding each, weighted by the sender's rank, into an accumulator.  The
 * sum is commutative, so the result does not depend on the order; the send
 * buffer is only changed after MPI_Waitall on the sends (line 86).
 *
 * Run:
 *   ./ordex run     -n 4 examples/nbexchange.c [L]
 *   ./ordex explore -n 4 examples/nbexchange.c [L]
 *   mpicc -o nbexchange examples/nbexchange.c && mpiexec -n 4 ./nbexchange [L]
 *
 * Expected ordex verdict: no error (run and explore, any n, with or without
 * buffering).  MPI_Waitany at line 80 has up to 4 candidates each time.
 *
 * Expected stdout (one line per rank, then rank 0's total):
 *   rank r: neighbours K, checksum X
 *   nbexchange: L=8 iterations=2 total T
 *   n=2: rank 0 3810d87d, rank 1 060c581d; total 1097255
 *   n=4: rank 0 69fa4c2d, rank 1 c7c286dd, rank 2 5ca120ed, rank 3 43ad15dd; total 882614
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ITERS 2

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int len = argc > 1 ? atoi(argv[1]) : 8;
    if (len < 1) {
        len = 1;
    }

    /* Neighbour list: ring offsets +1, -1, +2, -2 without self and duplicates. */
    int nb[4], nn = 0;
    const int offsets[4] = {1, -1, 2, -2};
    for (int i = 0; i < 4; i++) {
        int q = ((rank + offsets[i]) % size + size) % size;
        int dup = q == rank;
        for (int j = 0; j < nn; j++) {
            dup |= nb[j] == q;
        }
        if (!dup) {
            nb[nn++] = q;
        }
    }

    unsigned *v = malloc((size_t)len * sizeof(unsigned));
    unsigned *acc = malloc((size_t)len * sizeof(unsigned));
    unsigned *in = malloc((size_t)(4 * len) * sizeof(unsigned));
    for (int j = 0; j < len; j++) {
        v[j] = (unsigned)(rank * 1000 + j * 7 + 1);
    }

    for (int it = 0; it < ITERS; it++) {
        MPI_Request rreq[4], sreq[4];
        MPI_Status sst[4];
        for (int i = 0; i < nn; i++) {
            MPI_Irecv(&in[i * len], len, MPI_UNSIGNED, nb[i], it, MPI_COMM_WORLD, &rreq[i]);
        }
        for (int i = 0; i < nn; i++) {
            MPI_Isend(v, len, MPI_UNSIGNED, nb[i], it, MPI_COMM_WORLD, &sreq[i]);
        }
        for (int j = 0; j < len; j++) {
            acc[j] = 0;
        }
        for (int k = 0; k < nn; k++) {
            int idx;
            MPI_Status st;
            MPI_Waitany(nn, rreq, &idx, &st); /* [WAITANY] */
            unsigned weight = (unsigned)st.MPI_SOURCE + 1u;
            for (int j = 0; j < len; j++) {
                acc[j] += weight * in[idx * len + j];
            }
        }
        MPI_Waitall(nn, sreq, sst); /* [WAITALL] */
        for (int j = 0; j < len; j++) {
            v[j] = v[j] * 3u + acc[j] + (unsigned)it;
        }
    }

    unsigned h = 2166136261u; /* FNV-1a over the final vector */
    for (int j = 0; j < len; j++) {
        h = (h ^ v[j]) * 16777619u;
    }
    printf("rank %d: neighbours %d, checksum %08x\n", rank, nn, h);
    fflush(stdout);
    unsigned long mine = h % 1000003u, total = 0;
    MPI_Reduce(&mine, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("nbexchange: L=%d iterations=%d total %lu\n", len, ITERS, total);
        fflush(stdout);
    }
    free(v);
    free(acc);
    free(in);
    MPI_Finalize();
    return 0;
}
