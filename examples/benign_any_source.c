/*
 * benign_any_source.c - wildcard receives whose order does not matter (correct).
 *
 * Every rank r >= 1 makes ROUNDS requests to rank 0: it sends a value (line 55)
 * and waits for the answer (line 56).  Rank 0 serves the requests in arrival
 * order with MPI_ANY_SOURCE (line 43), answers each one to status.MPI_SOURCE
 * with twice the value, and adds the values up.  The arrival order varies, but
 * every sum is commutative and each answer goes back to the rank that asked, so
 * every ordering prints the same.  One request at a time per rank means no send
 * ever waits for a receive that waits for it: it also works without buffering.
 *
 * Run:
 *   ./ordex run     -n 4 examples/benign_any_source.c
 *   ./ordex explore -n 4 examples/benign_any_source.c
 *   mpicc -o benign_any_source examples/benign_any_source.c && mpiexec -n 4 ./benign_any_source
 *
 * Expected ordex verdict: no error (run and explore, any n).  The wildcard
 * receive at line 43 has up to size-1 candidate messages, so explore visits
 * many orderings, all with identical output: no message race must be reported.
 *
 * Expected stdout (one line per rank r >= 1, then rank 0):
 *   rank r: answers sum A        (A = 2 * (ROUNDS * 10r + 0+1+2) = 60r + 6)
 *   benign_any_source: served M requests, sum S
 *   n=2: rank 1 66; M=3 S=33.   n=4: rank 1 66, rank 2 126, rank 3 186; M=9 S=189.
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 3

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (rank == 0) {
        long sum = 0;
        int served = 0;
        for (int m = 0; m < ROUNDS * (size - 1); m++) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st); /* [ANY] */
            sum += v;
            served++;
            int answer = 2 * v;
            MPI_Send(&answer, 1, MPI_INT, st.MPI_SOURCE, 1, MPI_COMM_WORLD);
        }
        printf("benign_any_source: served %d requests, sum %ld\n", served, sum);
        fflush(stdout);
    } else {
        long answers = 0;
        for (int k = 0; k < ROUNDS; k++) {
            int v = 10 * rank + k, answer;
            MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);                         /* [REQ] */
            MPI_Recv(&answer, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [ANS] */
            answers += answer;
        }
        printf("rank %d: answers sum %ld\n", rank, answers);
        fflush(stdout);
    }

    MPI_Finalize();
    return 0;
}
