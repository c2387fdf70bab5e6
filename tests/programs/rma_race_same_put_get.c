/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_same_put_get.c - in one exclusive lock epoch on rank 1, rank 0
 * puts to an int of rank 1's window and then gets the same int.  MPI
 * orders no two operations of one origin except accumulates (MPI 3.1
 * 11.7.2): the get may read before the put lands, a data race although
 * both come from one rank.  The twin rma_race_same_put_get_ok.c flushes
 * between them.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v = 5, got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 2, 1, MPI_INT, win);   /* [A] */
        MPI_Get(&got, 1, MPI_INT, 1, 2, 1, MPI_INT, win); /* [B] */
        MPI_Win_unlock(1, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
