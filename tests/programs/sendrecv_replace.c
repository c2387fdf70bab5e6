/*
 * sendrecv_replace.c - MPI_Sendrecv_replace shifts a 3-int buffer around a ring.
 *
 * Each rank starts with {r, 10r, 100r}, shifts it right twice (size >= 1), and
 * prints the buffer: it then holds the values of rank (r-2) mod size.  No error.
 * stdout per rank r:  "rank r: buffer A B C from rank L".
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int buf[3] = {rank, 10 * rank, 100 * rank};
    MPI_Status st;
    for (int k = 0; k < 2; k++) {
        MPI_Sendrecv_replace(buf, 3, MPI_INT, right, k, left, k, MPI_COMM_WORLD, &st);
    }
    printf("rank %d: buffer %d %d %d from rank %d\n", rank, buf[0], buf[1], buf[2], st.MPI_SOURCE);
    MPI_Finalize();
    return 0;
}
