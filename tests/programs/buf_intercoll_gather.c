/* ordex-expect: ranks=4 past=A object=all bytes=4 */
/*
 * buf_intercoll_gather.c - on an intercommunicator of the even and the odd
 * ranks, world rank 0 (MPI_ROOT) gathers 3 ints from each of the two odd
 * ranks into int all[5]: the second block ends 4 bytes past the array.
 * The root's send buffer and everything of its bystander (world rank 2)
 * are not significant and are NULL.  The twin buf_intercoll_gather_ok.c
 * uses int all[6].
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
    int all[5];
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
