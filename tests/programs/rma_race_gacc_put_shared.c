/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_gacc_put_shared.c - under shared locks on rank 2, rank 0 does a
 * get_accumulate (MPI_SUM) on an int of rank 2's window and rank 1 puts to
 * it.  A get_accumulate is an accumulate (MPI 3.1 11.3.4); a put is not
 * atomic with it (11.7.1), and shared lock epochs may overlap: a data race.
 * The twin rma_race_gacc_put_shared_ok.c takes exclusive locks.
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
            /* [A] */ MPI_Get_accumulate(&v, 1, MPI_INT, &got, 1, MPI_INT, 2, 1, 1, MPI_INT,
                                         MPI_SUM, win);
        else
            MPI_Put(&v, 1, MPI_INT, 2, 1, 1, MPI_INT, win); /* [B] */
        MPI_Win_unlock(2, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
