/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_origin_store_rput.c - under MPI_Win_lock_all rank 0 puts from v
 * with MPI_Rput and stores into v before MPI_Wait returns the request.  An
 * MPI_Rput's origin buffer may be reused only once its request has
 * completed (MPI 3.1 11.3.5): a data race between the put and the store.
 * The twin rma_race_origin_store_rput_ok.c stores after MPI_Wait.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Rput(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win, &req); /* [A] */
        v = 20;                                                /* [B] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Win_unlock_all(win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
