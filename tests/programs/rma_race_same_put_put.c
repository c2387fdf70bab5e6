/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_same_put_put.c - in one fence epoch rank 0 puts 5 and then 6 to
 * the same int of rank 1's window.  Puts of one origin are not ordered
 * (MPI 3.1 11.7.2, only accumulates are): the int may end as either, a data
 * race.  The twin rma_race_same_put_put_ok.c uses a lock epoch with a
 * flush between the puts.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v[2] = {5, 6};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(&v[0], 1, MPI_INT, 1, 2, 1, MPI_INT, win); /* [A] */
        MPI_Put(&v[1], 1, MPI_INT, 1, 2, 1, MPI_INT, win); /* [B] */
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
