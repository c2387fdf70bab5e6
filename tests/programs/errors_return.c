/*
 * errors_return.c - with MPI_ERRORS_RETURN on MPI_COMM_WORLD an invalid send
 * returns an error code instead of aborting.
 *
 * Rank 0 sends to rank 99, checks that the return code is not MPI_SUCCESS and
 * prints its error class; then everybody finishes normally.
 * ordex must report nothing and exit 0.  stdout (rank 0 only):
 *   rank 0: got error class 6        (MPI_ERR_RANK is 6 in MPICH)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        int value = 1;
        int rc = MPI_Send(&value, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) {
            int cls;
            MPI_Error_class(rc, &cls);
            printf("rank 0: got error class %d\n", cls);
        } else {
            printf("rank 0: the send succeeded?!\n");
        }
        fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
