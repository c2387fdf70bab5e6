/* ordex-expect: ranks=2 race=A,B run */
/*
 * rma_race_loop_store_put.c - in one fence epoch rank 0 puts to int 37 of
 * rank 1's window while rank 1 fills its whole window, 64 ints, in a loop.
 * The loop's store into int 37 and the put conflict (MPI 3.1 11.7): a data
 * race, reported at the loop's store whichever comes first.  The twin
 * rma_race_loop_store_put_ok.c fills the window before the opening fence.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[64], v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    MPI_Win_fence(0, win);
    if (rank == 0) {
        MPI_Put(&v, 1, MPI_INT, 1, 37, 1, MPI_INT, win); /* [A] */
    } else {
        for (int i = 0; i < 64; i++)
            buf[i] = i; /* [B] */
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
