/*
 * compute_overflow.c - declared computation past any finite time.
 *
 * Every rank declares 1e308 s of computation twice (ordex_compute), then
 * meets the others in a barrier.  Under `ordex predict` simulated time would
 * pass the largest double: ordex says so on one line and exits with status
 * 2 (no prediction is possible); it flooded stderr with GLib criticals.
 */
#include <mpi.h>
#include <ordex.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ordex_compute(1e308);
    MPI_Barrier(MPI_COMM_WORLD);
    ordex_compute(1e308);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
