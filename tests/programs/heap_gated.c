/*
 * heap_gated.c - rank 0 sends to rank 1 only when malloc gives it 4 MiB.
 *
 * With the default heap (1 GiB per rank) the message goes and both ranks end:
 *   rank 1: got 42
 * With --heap-size 1MiB rank 0's malloc returns NULL, it sends nothing, and
 * rank 1 waits forever in its MPI_Recv: a deadlock.  A trace of that
 * deadlock must replay to the same deadlock, which needs the heap size.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, value = 42;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        char *block = malloc((size_t)4 << 20);
        if (block) {
            block[0] = 1;
            MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            free(block);
        }
    } else if (rank == 1) {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [RECV] */
        printf("rank 1: got %d\n", value);
    }
    MPI_Finalize();
    return 0;
}
