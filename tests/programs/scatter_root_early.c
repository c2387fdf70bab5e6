/*
 * scatter_root_early.c - the root of an MPI_Iscatter (and of an MPI_Scatter)
 * may return before the other ranks arrive, but with its own block in its
 * receive buffer: the other ranks compute first, so that under predict (and
 * along explore's orderings where the root leaves early) the root is done
 * long before them.  Every rank prints "rank R: got V ok" when V is the block
 * the standard gives it (100 * root + R), "WRONG" otherwise.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int s[16], r = -1, r2 = -1;
    for (int i = 0; i < 16; i++)
        s[i] = i;
    if (rank != 0) {
        volatile double x = 0;
        for (long i = 0; i < 20000000; i++)
            x += (double)i;
    }
    MPI_Request rq;
    MPI_Iscatter(s, 1, MPI_INT, &r, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Scatter(s, 1, MPI_INT, &r2, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d: got %d %s\n", rank, r, r == rank && r2 == rank ? "ok" : "WRONG");
    MPI_Finalize();
    return 0;
}
