/*
 * finalize_pending.c - MPI_Finalize with collectives still pending: every
 * nonblocking or started persistent collective must be completed first
 * (MPI 3.1 section 8.7).  ordex reports each as a pending_request error at
 * the call that started it.
 *
 *   finalize_pending ibarrier    every rank's MPI_Ibarrier (marked IBARRIER) is
 *                                never waited for
 *   finalize_pending unmatched   rank 0's MPI_Ibcast (marked IBCAST) has no
 *                                partner: never matched
 *   finalize_pending persistent  every rank starts an MPI_Allreduce_init
 *                                (marked START) and never waits for it
 *   finalize_pending             the correct twin: all three completed;
 *                                prints "rank R: done V"
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "";
    MPI_Request rq = MPI_REQUEST_NULL, pr = MPI_REQUEST_NULL;
    int v = rank, sum = -1;
    if (!strcmp(mode, "ibarrier") || !*mode) {
        MPI_Ibarrier(MPI_COMM_WORLD, &rq); // [IBARRIER]
        if (!*mode)
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
    if (!strcmp(mode, "unmatched") && rank == 0)
        MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq); // [IBCAST]
    if (!strcmp(mode, "persistent") || !*mode) {
        MPI_Allreduce_init(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &pr);
        MPI_Start(&pr); // [START]
        if (!*mode) {
            MPI_Wait(&pr, MPI_STATUS_IGNORE);
            MPI_Request_free(&pr);
            printf("rank %d: done %d\n", rank, sum);
        }
    }
    MPI_Finalize();
    return 0;
}
