/*
 * stack_overflow.c - unbounded recursion with a big local array in rank 1.
 *
 * ordex must report: [crash] "rank 1 overflowed its stack", with a location in
 * stack_overflow.c inside the recursive function (between the lines marked
 * FAULT and FAULT_END); exit status 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int depth(volatile int n) { /* FAULT */
    volatile char big[4096];
    memset((char *)big, n & 0x7f, sizeof big);
    return depth(n + 1) + big[n % 4096];
} /* FAULT_END */

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int r = 0;
    if (rank == 1) {
        r = depth(0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: %d\n", rank, r);
    MPI_Finalize();
    return 0;
}
