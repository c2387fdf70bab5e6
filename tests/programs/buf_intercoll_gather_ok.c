/* ordex-expect: ranks=4 clean */
/*
 * buf_intercoll_gather_ok.c - the correct twin of buf_intercoll_gather.c:
 * the root gathers the two odd ranks' 3 ints each into int all[6]; its send
 * buffer and its bystander's buffers are NULL, which is allowed there.
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 0, &ic);
    int mine[3] = {rank, rank, rank};
    int all[6];
    if (rank % 2)
        MPI_Gather(mine, 3, MPI_INT, NULL, 0, MPI_INT, 0, ic);
    else if (rank == 0)
        MPI_Gather(NULL, 0, MPI_INT, all, 3, MPI_INT, MPI_ROOT, ic); /* [A] */
    else
        MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, MPI_PROC_NULL, ic);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
