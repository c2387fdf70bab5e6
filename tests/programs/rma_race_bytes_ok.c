/* ordex-expect: ranks=3 clean */
/*
 * rma_race_bytes_ok.c - twin of rma_race_bytes.c: with a displacement unit
 * of one byte, rank 0 puts an int at byte 4 of rank 2's window and rank 1
 * at byte 8.  Adjacent, not overlapping: no race.  Rank 2 prints 1 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, v, a, b;
    char mem[16] = {0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    MPI_Win_fence(0, win);
    if (rank < 2)
        MPI_Put(&v, 1, MPI_INT, 2, 4 + 4 * rank, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 2) {
        memcpy(&a, mem + 4, sizeof a);
        memcpy(&b, mem + 8, sizeof b);
        printf("rank 2: %d %d\n", a, b);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
