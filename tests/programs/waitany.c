/*
 * waitany.c - rank 0 completes one MPI_Irecv per other rank with MPI_Waitany
 * and combines the values commutatively (sum and xor), so the result does not
 * depend on the completion order.  No error.  stdout (rank 0):
 *   rank 0: completed N requests, sum S xor X, all indices seen Y undefined U
 * n=4: 3 requests, values 11,22,33: sum 66 xor 60, all indices seen 1
 * undefined 1 (a last MPI_Waitany on inactive requests returns MPI_UNDEFINED).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int vals[64];
        MPI_Request reqs[64];
        int n = size - 1, sum = 0, x = 0, seen = 0;
        for (int i = 0; i < n; i++) {
            MPI_Irecv(&vals[i], 1, MPI_INT, i + 1, 0, MPI_COMM_WORLD, &reqs[i]);
        }
        for (int k = 0; k < n; k++) {
            int idx;
            MPI_Status st;
            MPI_Waitany(n, reqs, &idx, &st);
            seen |= 1 << idx;
            sum += vals[idx];
            x ^= vals[idx];
        }
        int idx;
        MPI_Waitany(n, reqs, &idx, MPI_STATUS_IGNORE); /* all inactive: MPI_UNDEFINED */
        printf("rank 0: completed %d requests, sum %d xor %d, all indices seen %d undefined %d\n",
               n, sum, x, seen == (1 << n) - 1, idx == MPI_UNDEFINED);
    } else {
        int v = rank * 11;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
