/* ordex-expect: ranks=3 clean */
/*
 * rma_race_two_windows_ok.c - twin of rma_race_two_windows.c: rank 0's
 * MPI_Win_unlock completes its put through the first window at rank 2
 * (MPI 3.1 11.5.3) before a barrier, and rank 1 locks the second window
 * only after it.  The accesses are ordered: no race; rank 2 ends with 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win w1, w2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w1);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
    v = rank + 1;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, w1);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, w1);
        MPI_Win_unlock(2, w1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, w2);
        MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, w2);
        MPI_Win_unlock(2, w2);
    }
    MPI_Win_free(&w2);
    MPI_Win_free(&w1);
    if (rank == 2)
        printf("rank 2: %d\n", buf[1]);
    MPI_Finalize();
    return 0;
}
