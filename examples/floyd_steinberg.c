/*
 * floyd_steinberg.c - Floyd-Steinberg error diffusion, rows pipelined over ranks.
 *
 * A generated N x N grey image (N = argv[1], default 32) is dithered to black and
 * white.  Row y belongs to rank y % size.  Quantising a pixel pushes its error to
 * the right (7/16) and to three pixels of the next row (3/16, 5/16, 1/16), so row y
 * needs the error contributions of row y-1, which live on the rank above.  They
 * travel in chunks of CHUNK columns: as soon as the contributions to a chunk are
 * final, the owner of row y-1 sends it (MPI_Isend, line 75) and the owner of
 * row y, which receives each chunk just before it needs it (line 85), can
 * start while the row above is still being processed.  Every finished row is sent
 * to rank 0, which collects the rows of the other ranks in arrival order with
 * MPI_ANY_SOURCE / MPI_ANY_TAG (line 114) and places each by its tag.
 * Integer arithmetic makes the result exactly that of the sequential algorithm,
 * for every number of ranks.
 *
 * Run:
 *   ./ordex run     -n 4 examples/floyd_steinberg.c [N]
 *   ./ordex explore -n 4 examples/floyd_steinberg.c [N]
 *   mpicc -o floyd_steinberg examples/floyd_steinberg.c && mpiexec -n 4 ./floyd_steinberg [N]
 *
 * Expected ordex verdict: no error (run and explore, any n, with or without
 * buffering: all sends are MPI_Isend, completed at the end of each row
 * (line 97), and a row only waits for rows above it).  The arrival order at
 * line 114 varies; the output does not.
 *
 * Expected stdout (default N=32; lines may interleave):
 *   rank r: dithered K rows                  (K = rows y < N with y % size == r)
 *   floyd_steinberg: 32x32 image, 501 white pixels, checksum 33fc4480   (rank 0)
 * That line is the same for every number of ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 8

static int pixel(int x, int y, int n) {
    return (x * 255 / (n - 1) + y * 64 / n + (x * 31 + y * 17) % 23) % 256;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 32;
    n = n < 2 ? 2 : n > 4096 ? 4096 : n; /* tags 2y and 2y+1 stay below 32767 */
    int chunks = (n + CHUNK - 1) / CHUNK;

    int myrows = rank < n ? (n - rank + size - 1) / size : 0;
    unsigned char *mine = malloc((size_t)(myrows > 0 ? myrows : 1) * (size_t)n);
    int *err_in = calloc((size_t)n + 2, sizeof(int));  /* [1+x]: error for pixel x of this row */
    int *err_out = calloc((size_t)n + 2, sizeof(int)); /* [1+x]: error for pixel x of next row */
    MPI_Request *creq = malloc((size_t)chunks * sizeof(MPI_Request));
    MPI_Status *cst = malloc((size_t)chunks * sizeof(MPI_Status));
    MPI_Request *rowreq = malloc((size_t)(myrows > 0 ? myrows : 1) * sizeof(MPI_Request));
    MPI_Status *rowst = malloc((size_t)(myrows > 0 ? myrows : 1) * sizeof(MPI_Status));
    int nrowreq = 0;

    for (int y = rank, k = 0; y < n; y += size, k++) {
        int above = (y - 1 + size) % size, below = (y + 1) % size;
        int pipeline = size > 1 && y + 1 < n; /* does row y+1 live on another rank? */
        if (size == 1) {
            memcpy(err_in, err_out, ((size_t)n + 2) * sizeof(int)); /* row y-1 was ours */
        }
        memset(err_out, 0, ((size_t)n + 2) * sizeof(int));
        int carry = 0, sent = 0, nc = 0;
        for (int x = 0; x <= n; x++) {
            /* Columns < x are done, so next-row pixels < x-1 are final: send those chunks. */
            while (sent < chunks && (sent + 1 == chunks ? x == n : (sent + 1) * CHUNK < x)) {
                int first = sent * CHUNK, len = first + CHUNK <= n ? CHUNK : n - first;
                if (pipeline) {
                    MPI_Isend(&err_out[1 + first], len, MPI_INT, below, 2 * (y + 1), // [SENDC]
                              MPI_COMM_WORLD, &creq[nc++]);
                }
                sent++;
            }
            if (x == n) {
                break;
            }
            if (x % CHUNK == 0 && y > 0 && size > 1) {
                int len = x + CHUNK <= n ? CHUNK : n - x;
                MPI_Recv(&err_in[1 + x], len, MPI_INT, above, 2 * y, // [RECVC]
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            int val = pixel(x, y, n) + err_in[1 + x] + carry;
            int q = val < 128 ? 0 : 255;
            int e = val - q;
            mine[(size_t)k * n + x] = (unsigned char)q;
            carry = e * 7 / 16;
            err_out[x] += e * 3 / 16; /* pixel x-1 of the next row */
            err_out[1 + x] += e * 5 / 16;
            err_out[2 + x] += e / 16;
        }
        MPI_Waitall(nc, creq, cst); /* [WAITROW] */
        if (rank != 0) {
            MPI_Isend(&mine[(size_t)k * n], n, MPI_UNSIGNED_CHAR, 0, 2 * y + 1, MPI_COMM_WORLD,
                      &rowreq[nrowreq++]);
        }
    }
    printf("rank %d: dithered %d rows\n", rank, myrows);
    fflush(stdout);

    if (rank == 0) {
        unsigned char *img = malloc((size_t)n * (size_t)n);
        for (int k = 0; k < myrows; k++) {
            memcpy(&img[(size_t)k * size * n], &mine[(size_t)k * n], (size_t)n);
        }
        for (int m = 0; m < n - myrows; m++) {
            MPI_Status st;
            unsigned char *row = malloc((size_t)n);
            MPI_Recv(row, n, MPI_UNSIGNED_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, // [COLLECT]
                     MPI_COMM_WORLD, &st);
            int y = (st.MPI_TAG - 1) / 2;
            memcpy(&img[(size_t)y * n], row, (size_t)n);
            free(row);
        }
        long white = 0;
        unsigned h = 2166136261u;
        for (long i = 0; i < (long)n * n; i++) {
            white += img[i] != 0;
            h = (h ^ img[i]) * 16777619u;
        }
        printf("floyd_steinberg: %dx%d image, %ld white pixels, checksum %08x\n", n, n, white, h);
        fflush(stdout);
        free(img);
    }
    MPI_Waitall(nrowreq, rowreq, rowst);
    free(mine);
    free(err_in);
    free(err_out);
    free(creq);
    free(cst);
    free(rowreq);
    free(rowst);
    MPI_Finalize();
    return 0;
}
