/*
 * predict_coll.c - collective timings that `ordex predict` must get exactly
 * (tests/e2e/test_predict.c, --ignore-compute, tests/programs/predict.ini:
 * 10 us latency, 1 GB/s, one rank per node).  Every rank prints when its
 * collective returned ("rank R at T us").  argv[1] picks the collective:
 *
 *   barrier     dissemination, 4 ranks: 2 rounds of empty messages: 20 us each
 *   bcast       1000 B from rank 0 on 8 ranks, binomial tree with eager
 *               sends: the root's three sends share its link (10 + 3 us), so
 *               ranks 1, 2, 4 get the data at 13 us; rank 4's two sends share
 *               its link (13 + 12 = 25 us for ranks 5 and 6), rank 2's one
 *               does not (24 us for rank 3); rank 6 forwards to 7 (36 us).
 *               The root leaves at once (0 us).
 *   allreduce   8 B on 4 ranks, recursive doubling: 2 exchanges of
 *               10.008 us: 20.016 us everywhere
 *   late_barrier  as barrier, but rank 3 computes 1 ms first: everyone
 *               leaves after 1 ms
 *   late_bcast  1000 B from rank 0 on 4 ranks, rank 3 computes 1 ms first:
 *               the root's two sends share its link (10 + 2 us), so ranks 1
 *               and 2 have their data at 12 us and leave then (rank 2's eager
 *               send to rank 3 does not hold it); rank 3 leaves as it
 *               arrives, at 1000 us, its data already there; the root at 0
 *   inter_bcast 1000 B on an intercommunicator of the even and the odd ranks
 *               of 4, from world rank 0 (after a barrier that all leave
 *               together; times from there): MPICH sends to the other
 *               group's leader, world rank 1, which has it at 11 us and
 *               broadcasts in its group: rank 3 at 22 us; the root and its
 *               bystander, rank 2, leave at once (0 us)
 */
#include <mpi.h>
#include <ordex.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "barrier";
    char data[1000] = {0};
    double x = rank, y = 0;
    if (strcmp(mode, "barrier") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(mode, "late_barrier") == 0) {
        if (rank == 3)
            ordex_compute(1e-3);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(mode, "late_bcast") == 0) {
        if (rank == 3)
            ordex_compute(1e-3);
        if (rank == 0)
            memset(data, 7, sizeof data);
        MPI_Bcast(data, 1000, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (data[999] != 7)
            printf("rank %d: wrong data\n", rank);
    } else if (strcmp(mode, "bcast") == 0) {
        MPI_Bcast(data, 1000, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (strcmp(mode, "inter_bcast") == 0) {
        MPI_Comm local, ic;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 0, &ic);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        int root = rank % 2 ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
        MPI_Bcast(data, 1000, MPI_BYTE, root, ic);
        printf("rank %d after %.3f us\n", rank, (MPI_Wtime() - t0) * 1e6);
        MPI_Comm_free(&ic);
        MPI_Comm_free(&local);
    } else if (strcmp(mode, "allreduce") == 0) {
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    printf("rank %d at %.3f us\n", rank, MPI_Wtime() * 1e6);
    MPI_Finalize();
    return 0;
}
