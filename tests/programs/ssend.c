/*
 * ssend.c - synchronous sends in a safe order: even ranks MPI_Ssend to the
 * odd rank above them and then receive its answer; odd ranks receive first.
 * With an odd size the last rank has no partner.  No error.  stdout:
 *   rank r: partner P sent V     (for ranks that have a partner)
 *   rank r: no partner           (the last rank when size is odd)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
    if (partner >= size) {
        printf("rank %d: no partner\n", rank);
    } else {
        int out = rank * 7 + 1, in = -1;
        if (rank % 2 == 0) {
            MPI_Ssend(&out, 1, MPI_INT, partner, 2, MPI_COMM_WORLD);
            MPI_Recv(&in, 1, MPI_INT, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&in, 1, MPI_INT, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Ssend(&out, 1, MPI_INT, partner, 2, MPI_COMM_WORLD);
        }
        printf("rank %d: partner %d sent %d\n", rank, partner, in);
    }
    MPI_Finalize();
    return 0;
}
