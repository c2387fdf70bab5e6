/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_store_fop_noop.c - in one fence epoch rank 0 reads int 1 of rank
 * 1's window with MPI_Fetch_and_op and MPI_NO_OP while rank 1 stores into
 * that int.  The operation reads the target, the store writes it, unordered
 * (MPI 3.1 11.7): a data race; rank 0 may fetch either value.  The twin
 * rma_race_load_gacc_noop_ok.c only loads.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 7, 0, 0}, v = 0, old = -1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Fetch_and_op(&v, &old, MPI_INT, 1, 1, MPI_NO_OP, win); /* [A] */
    else
        buf[1] = 5; /* [B] */
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("rank 0: 5 or 7: %d\n", old == 5 || old == 7);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
