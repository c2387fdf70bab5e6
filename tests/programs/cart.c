/*
 * cart.c - a periodic 2x2 Cartesian grid: MPI_Cart_create, MPI_Cart_coords,
 * MPI_Cart_shift.  Run with -n 4.  No error; every rank prints
 *   rank r: coords (X,Y) up U down D left L right R
 * (stdout equals real MPICH's).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int dims[2] = {2, 2}, periods[2] = {1, 0}, coords[2];
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    int r;
    MPI_Comm_rank(grid, &r);
    MPI_Cart_coords(grid, r, 2, coords);
    int up, down, left, right;
    MPI_Cart_shift(grid, 0, 1, &up, &down);
    MPI_Cart_shift(grid, 1, 1, &left, &right);
    printf("rank %d: coords (%d,%d) up %d down %d left %d right %d\n", r, coords[0], coords[1], up,
           down, left, right);
    MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
