/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_get_acc_shared.c - rank 0 gets an int of rank 2's window while
 * rank 1 accumulates into it, both under shared locks on rank 2.  A get
 * and an accumulate conflict (only accumulates are atomic with each other,
 * MPI 3.1 11.7.1), and shared lock epochs may overlap: a data race.  The
 * twin rma_race_get_acc_shared_ok.c separates them with a barrier.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank < 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        if (rank == 0)
            MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [A] */
        else
            MPI_Accumulate(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, MPI_SUM, win); /* [B] */
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
