/*
 * wildcard.c - rank 0 receives n-1 values from MPI_ANY_SOURCE and sums them.
 *
 * Rank r >= 1 sends r*r.  Whatever the matching order the sum is the same.
 * No error.  stdout: "rank 0: received N values, sum S" with N = size-1 and
 * S = sum of r*r (n=4: 3 values, sum 14).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int sum = 0, seen = 0;
        for (int i = 1; i < size; i++) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &st);
            if (v == st.MPI_SOURCE * st.MPI_SOURCE) {
                seen++;
            }
            sum += v;
        }
        printf("rank 0: received %d values, sum %d\n", seen, sum);
    } else {
        int v = rank * rank;
        MPI_Send(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
