/* ordex-expect: ranks=3 clean */
/*
 * rma_race_fop_get_shared_ok.c - twin of rma_race_fop_get_shared.c: rank 1
 * receives a message that rank 0 sends after MPI_Win_unlock (which completed
 * the fetch_and_op at rank 2, MPI 3.1 11.5.3) before it locks and gets.
 * Ordered: no race.  Rank 0 fetched 0, rank 1 gets 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v, got = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = rank + 1;
    if (rank == 1)
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank < 2) {
        MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
        if (rank == 0)
            MPI_Fetch_and_op(&v, &got, MPI_INT, 2, 1, MPI_SUM, win);
        else
            MPI_Get(&got, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
        MPI_Win_unlock(2, win);
        printf("rank %d: got %d\n", rank, got);
    }
    if (rank == 0)
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
