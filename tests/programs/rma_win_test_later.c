/*
 * rma_win_test_later.c - MPI_Win_test may say "not yet" when the exposure
 * epoch could end: MPI does not promise immediate progress.
 *
 * Rank 0 exposes its window to rank 1, which puts one value and completes.
 * Rank 0 polls with MPI_Win_test (touching its window only once the epoch
 * is over) and says whether it took more than one call.  Under ordex the
 * first call lets rank 1 run to its complete and could then succeed: explore
 * tries "not yet" there too (two outcomes), --no-test-later does not.  A
 * real MPI may take any number of calls.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, buf = 0, v = 7, flag = 0, calls = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Group world, peer;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int other = 1 - rank;
    MPI_Group_incl(world, 1, &other, &peer);
    MPI_Win win;
    MPI_Win_create(&buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_post(peer, 0, win);
        while (!flag) {
            MPI_Win_test(win, &flag);
            calls++;
        }
        printf("rank 0: buf %d, more than one test: %s\n", buf, calls > 1 ? "yes" : "no");
    } else {
        MPI_Win_start(peer, 0, win);
        MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
