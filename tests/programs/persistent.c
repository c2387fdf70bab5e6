/*
 * persistent.c - persistent requests: MPI_Send_init / MPI_Recv_init, then
 * MPI_Start + MPI_Wait in a loop, then MPI_Request_free.
 *
 * Ranks form a ring; for 5 iterations each rank sends (rank+1)*iteration to its
 * right neighbour and receives from its left.  No error.  stdout per rank r:
 *   rank r: received total T from rank L     (T = sum over it=0..4 of (L+1)*it)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out, in, total = 0;
    MPI_Request req[2];
    MPI_Send_init(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Recv_init(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &req[1]);
    for (int it = 0; it < 5; it++) {
        out = (rank + 1) * it;
        MPI_Start(&req[1]);
        MPI_Start(&req[0]);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        total += in;
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    printf("rank %d: received total %d from rank %d\n", rank, total, left);
    MPI_Finalize();
    return 0;
}
