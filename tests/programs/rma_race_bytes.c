/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_bytes.c - a window with a displacement unit of one byte; in one
 * fence epoch rank 0 puts an int at byte 4 of rank 2's window and rank 1
 * an int at byte 6.  The puts share bytes 6 and 7: overlapping bytes are
 * the same location for MPI (MPI 3.1 11.7.1), a data race.  The twin
 * rma_race_bytes_ok.c puts the second int at byte 8, right after the first.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, v;
    char mem[16] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Put(&v, 1, MPI_INT, 2, 4, 1, MPI_INT, win); /* [A] */
    if (rank == 1)
        MPI_Put(&v, 1, MPI_INT, 2, 6, 1, MPI_INT, win); /* [B] */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
