/*
 * waitany_race.c - the result depends on the order in which MPI_Waitany completes.
 *
 * Rank 0 posts one MPI_Irecv per other rank and handles them with MPI_Waitany
 * (line 56) in completion order, folding each value into a result with the
 * NON-commutative step  result = result * 31 + value  (line 57).  Rank r sends
 * the value r*r + 7.  The program never deadlocks and every message is received,
 * but the printed result (and completion order) depends on which message arrives
 * first: a message race.  Fix: fold in rank order after MPI_Waitall, or use a
 * commutative combination.
 *
 * Run:
 *   ./ordex run     -n 4 examples/waitany_race.c
 *   ./ordex explore -n 4 examples/waitany_race.c
 *   mpicc -o waitany_race examples/waitany_race.c && mpiexec -n 4 ./waitany_race
 *
 * Expected ordex verdicts:
 *   n >= 3: explore: message race - rank 0's output differs between orderings; the
 *           diverging choice is which request MPI_Waitany at line 56 returns
 *           first (n=3: 2 outcomes, n=4: 6 outcomes).  No deadlock, no MPI error.
 *           run: no error (one ordering); in the natural order the messages
 *           complete in rank order: n=4 prints "order 1 2 3 result 8045".
 *   n <= 2: no error (a single message: one ordering).  n=2: "order 1 result 8".
 *
 * Expected stdout: "rank r: sent V" for r >= 1 and, from rank 0,
 *   waitany_race: order A B C result R
 * n=3 outcomes: 1 2 -> 259, 2 1 -> 349.
 * n=4 outcomes: 1 2 3 -> 8045, 1 3 2 -> 8195, 2 1 3 -> 10835, 2 3 1 -> 11075,
 *               3 1 2 -> 15635, 3 2 1 -> 15725.
 * Real MPICH, n=4, 30 runs: 5 of the 6 orders were seen.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (rank == 0) {
        int n = size - 1;
        int *vals = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
        MPI_Request *reqs = malloc((size_t)(n > 0 ? n : 1) * sizeof(MPI_Request));
        for (int i = 0; i < n; i++) {
            MPI_Irecv(&vals[i], 1, MPI_INT, i + 1, 0, MPI_COMM_WORLD, &reqs[i]);
        }
        unsigned result = 0;
        char *line = malloc(64 + 12 * (size_t)size);
        strcpy(line, "waitany_race: order");
        for (int k = 0; k < n; k++) {
            int idx;
            MPI_Status st;
            MPI_Waitany(n, reqs, &idx, &st);             /* [WAITANY] */
            result = result * 31u + (unsigned)vals[idx]; /* [FOLD] */
            sprintf(line + strlen(line), " %d", st.MPI_SOURCE);
        }
        printf("%s result %u\n", line, result);
        fflush(stdout);
        free(line);
        free(vals);
        free(reqs);
    } else {
        int v = rank * rank + 7;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        printf("rank %d: sent %d\n", rank, v);
        fflush(stdout);
    }

    MPI_Finalize();
    return 0;
}
