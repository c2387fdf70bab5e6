/*
 * probe_race.c - a receive buffer sized from the first probed message.
 *
 * Rank r (r >= 1) sends one message of (size - r) * 4 ints to rank 0, so rank 1
 * sends the largest.  Rank 0 probes with MPI_ANY_SOURCE (line 52), sizes its
 * buffer from the FIRST message it sees (line 56) - its author expected
 * that to be rank 1's, the largest - and then receives every message with
 * MPI_Recv from status.MPI_SOURCE into that buffer (line 58).
 *   - If rank 1's message is probed first, the buffer fits every message.
 *   - If another rank's (smaller) message is probed first, rank 1's message later
 *     does not fit: MPI_ERR_TRUNCATE in MPI_Recv at line 58.
 * Fix: size the buffer from each probe's count, or allocate for the largest.
 *
 * Run:
 *   ./ordex run     -n 3 examples/probe_race.c
 *   ./ordex explore -n 3 examples/probe_race.c
 *   mpicc -o probe_race examples/probe_race.c && mpiexec -n 3 ./probe_race
 *
 * Expected ordex verdicts:
 *   n >= 3: explore: MPI error MPI_ERR_TRUNCATE on rank 0 in MPI_Recv at line
 *           58 (receiving rank 1's (size-1)*4 ints into a buffer sized for a
 *           smaller message), in every ordering where the probe at line 52
 *           answers with a message from a rank other than 1.
 *           run: no error in the natural order (rank 1 sends first and is probed
 *           first); stdout below.
 *   n <= 2: no error (only rank 1 sends).
 *
 * Expected stdout when no truncation happens (one line per sender, then rank 0):
 *   rank r: sent K ints              (K = (size - r) * 4)
 *   probe_race: received M messages, T ints, sum S
 *   n=2: M=1 T=4 S=4006; n=3: M=2 T=12 S=16034; n=4: M=3 T=24 S=40100
 * Real MPICH, 30 runs each: n=3 aborted ("Message truncated") 9 times, n=4 20 times.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TAG 3

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (rank == 0) {
        MPI_Status st;
        int cap = 0, total = 0;
        long sum = 0;
        int *buf = NULL;
        for (int m = 0; m < size - 1; m++) {
            MPI_Probe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st); /* [PROBE1] */
            if (buf == NULL) {
                /* BUG: assumes the first message (rank 1's) is the largest. */
                MPI_Get_count(&st, MPI_INT, &cap);
                buf = malloc((size_t)cap * sizeof(int)); /* [ALLOC] */
            }
            MPI_Recv(buf, cap, MPI_INT, st.MPI_SOURCE, TAG, MPI_COMM_WORLD, &st); /* [RECV] */
            int got;
            MPI_Get_count(&st, MPI_INT, &got);
            for (int i = 0; i < got; i++) {
                sum += buf[i];
            }
            total += got;
        }
        printf("probe_race: received %d messages, %d ints, sum %ld\n", size - 1, total, sum);
        fflush(stdout);
        free(buf);
    } else {
        int k = (size - rank) * 4;
        int *data = malloc((size_t)k * sizeof(int));
        for (int i = 0; i < k; i++) {
            data[i] = rank * 1000 + i;
        }
        MPI_Send(data, k, MPI_INT, 0, TAG, MPI_COMM_WORLD);
        printf("rank %d: sent %d ints\n", rank, k);
        fflush(stdout);
        free(data);
    }

    MPI_Finalize();
    return 0;
}
