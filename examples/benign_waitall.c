/*
 * benign_waitall.c - nonblocking ring exchange completed with MPI_Waitall (correct).
 *
 * Every rank posts receives from both ring neighbours and sends to both
 * (MPI_Irecv / MPI_Isend, from line 49 on), then completes all four requests with
 * one MPI_Waitall (line 54).  Each direction has its own tag, so the two
 * messages between the same pair of ranks (n = 2, where left == right) cannot be
 * confused.  Nothing is read before MPI_Waitall returns.  This is repeated for
 * ITERS iterations, each rank adding what it received to its value.
 *
 * Run:
 *   ./ordex run     -n 4 examples/benign_waitall.c
 *   ./ordex explore -n 4 examples/benign_waitall.c
 *   mpicc -o benign_waitall examples/benign_waitall.c && mpiexec -n 4 ./benign_waitall
 *
 * Expected ordex verdict: no error (run and explore, any n, with or without
 * buffering).  The completion order inside MPI_Waitall varies, but every
 * receive names its source and tag and the results are only read afterwards.
 *
 * Expected stdout (one line per rank):
 *   rank r: from left L, from right R, value V      (values of the last iteration)
 *   n=2: rank 0: from left 1610, from right 1610, value 6436
 *        rank 1: from left 1606, from right 1606, value 6428
 *   n=4: rank 0: from left 1658, from right 1666, value 6632
 *        rank 1: from left 1642, from right 1658, value 6624
 *        rank 2: from left 1666, from right 1658, value 6640
 *        rank 3: from left 1658, from right 1642, value 6600
 */
#include <mpi.h>
#include <stdio.h>

#define ITERS 3
#define TAG_RIGHTWARD 1 /* a message travelling to the right neighbour */
#define TAG_LEFTWARD 2  /* a message travelling to the left neighbour */

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank - 1 + size) % size;
    int right = (rank + 1) % size;

    long value = 100 + rank * rank, from_left = 0, from_right = 0;
    for (int it = 0; it < ITERS; it++) {
        MPI_Request req[4];
        MPI_Status st[4];
        long out = value;
        MPI_Irecv(&from_left, 1, MPI_LONG, left, TAG_RIGHTWARD, // [POST]
                  MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&from_right, 1, MPI_LONG, right, TAG_LEFTWARD, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(&out, 1, MPI_LONG, right, TAG_RIGHTWARD, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(&out, 1, MPI_LONG, left, TAG_LEFTWARD, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, st); /* [WAITALL] */
        value = (value + from_left + 2 * from_right) % 1000003;
    }
    printf("rank %d: from left %ld, from right %ld, value %ld\n", rank, from_left, from_right,
           value);
    fflush(stdout);

    MPI_Finalize();
    return 0;
}
