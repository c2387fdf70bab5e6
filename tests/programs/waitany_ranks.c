/*
 * waitany_ranks.c - two ranks each take two messages in MPI_Waitany order,
 * independently of each other.
 *
 * Needs 4 ranks.  Ranks 2 and 3 each send one int to rank 0 and one to rank
 * 1 (standard mode) before a barrier; ranks 0 and 1 post their two receives
 * before the barrier too and call MPI_Waitany twice after it, when both
 * receives have their messages: which one comes first is the
 * implementation's choice.  Each of ranks 0 and 1 adds up its values
 * weighted by the order it saw them in (first + 2 * second), so each has two
 * outcomes, and the program four.
 *
 * Expected: a message race (4 outcomes); stdout "rank R: S" for R = 0, 1.
 * Exploration orders rank 0's choice and rank 1's once, not in both orders:
 * they are independent.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "waitany_ranks: needs 4 ranks\n");
        MPI_Finalize();
        return 1;
    }
    int v[2] = {0, 0};
    MPI_Request r[2];
    if (rank < 2) {
        MPI_Irecv(&v[0], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&v[1], 1, MPI_INT, 3, 0, MPI_COMM_WORLD, &r[1]);
    } else {
        int x = rank * 10;
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank < 2) {
        int sum = 0;
        for (int k = 1; k <= 2; k++) {
            int i;
            MPI_Waitany(2, r, &i, MPI_STATUS_IGNORE);
            sum += k * v[i];
        }
        printf("rank %d: %d\n", rank, sum);
    }
    MPI_Finalize();
    return 0;
}
