/*
 * mpi4_refused.c - MPI 4.0's partitioned communication and Sessions, which
 * ordex refuses lazily: the program refers to them and runs; only a call
 * stops the run (exit status 2, verdict "unsupported", the function and the
 * line named).
 *
 *   mpi4_refused           calls neither: runs to its end, prints "rank R: done"
 *   mpi4_refused psend     rank 0 calls MPI_Psend_init (marked PSEND)
 *   mpi4_refused session   every rank calls MPI_Session_init (SESSION)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "";
    int buf[4] = {0};
    MPI_Request rq = MPI_REQUEST_NULL;
    if (!strcmp(mode, "psend") && rank == 0) {
        MPI_Psend_init(buf, 2, 2, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, // [PSEND]
                       &rq);
        MPI_Start(&rq);
        MPI_Pready(0, rq);
        MPI_Pready(1, rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Request_free(&rq);
    }
    if (!strcmp(mode, "session")) {
        MPI_Session s;
        MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s); // [SESSION]
        MPI_Session_finalize(&s);
    }
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
