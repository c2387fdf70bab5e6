/*
 * unsupported_rma.c - one-sided communication, which ordex does not
 * implement: main creates a window (line WIN_CREATE), fences it (FENCE,
 * twice) and frees it (WIN_FREE); a helper it calls puts a value (PUT).
 *
 * ordex must refuse it before running it, exit status 2, with one line:
 * "the program calls MPI_Win_create at unsupported_rma.c:<WIN_CREATE>, which
 * ordex does not implement (nor MPI_Win_fence at ...:<FENCE>, MPI_Win_free
 * at ...:<WIN_FREE>, MPI_Put at ...:<PUT>)" (main's calls first, in code
 * order; then the helper's), and --json gets "verdict": "unsupported" with
 * each function and the lines that call it.
 */
#include <mpi.h>
#include <stdio.h>

static void put_one(MPI_Win win, int *v) {
    MPI_Put(v, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* PUT */
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, buf = 0, v = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win win;
    MPI_Win_create(&buf, 4, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* WIN_CREATE */
    MPI_Win_fence(0, win);                                           /* FENCE */
    if (rank == 1)
        put_one(win, &v);
    MPI_Win_fence(0, win); /* FENCE_2 */
    if (rank == 0)
        printf("rank 0: %d\n", buf);
    MPI_Win_free(&win); /* WIN_FREE */
    MPI_Finalize();
    return 0;
}
