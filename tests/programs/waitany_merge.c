/*
 * waitany_merge.c - orderings that differ only in what MPI_Waitany reported.
 *
 * Rank 0 takes one value from rank 1 and one from rank 2 in each of two
 * rounds, in completion order (MPI_Waitany), and adds them up.  The sum does
 * not depend on the order, so the two orderings of the first round lead to
 * the same state at the second round's MPI_Waitany: the index and status it
 * is about to overwrite are dead, and the request handles the program gets
 * do not depend on the order in which the first round's requests were freed.
 * Exploration should merge them there.
 *
 * Expected: no error; rank 0 prints "sum 165".
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int val[2], sum = 0;
        for (int round = 0; round < 2; round++) {
            MPI_Request req[2];
            MPI_Irecv(&val[0], 1, MPI_INT, 1, round, MPI_COMM_WORLD, &req[0]);
            MPI_Irecv(&val[1], 1, MPI_INT, 2, round, MPI_COMM_WORLD, &req[1]);
            for (int k = 0; k < 2; k++) {
                int idx;
                MPI_Status st;
                MPI_Waitany(2, req, &idx, &st);
                sum += val[idx] * (st.MPI_SOURCE + 1);
            }
        }
        printf("sum %d\n", sum);
    } else if (rank <= 2) {
        for (int round = 0; round < 2; round++) {
            int v = rank * 10 + round;
            MPI_Send(&v, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
