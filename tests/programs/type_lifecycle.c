/*
 * type_lifecycle.c - a derived datatype must be committed before it is used
 * in communication and cannot be used once freed (MPI 3.1 section 4.1.9).
 *
 *   type_lifecycle             the correct twin: built, committed, used in an
 *                              MPI_Bcast and an MPI_Sendrecv, freed; prints
 *                              "rank R: got A B" (MPICH's output)
 *   type_lifecycle uncommitted MPI_Bcast with the type before MPI_Type_commit
 *                              (marked UNCOMMITTED): an MPI error naming it
 *   type_lifecycle freed       MPI_Sendrecv with the type after MPI_Type_free
 *                              (marked FREED): an MPI error, the handle invalid
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
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int a[4] = {rank, -1, rank + 10, -1}, b[4] = {-1, -1, -1, -1};
    MPI_Datatype every2, keep;
    MPI_Type_vector(2, 1, 2, MPI_INT, &every2);
    if (!strcmp(mode, "uncommitted")) {
        MPI_Bcast(a, 1, every2, 0, MPI_COMM_WORLD); // [UNCOMMITTED]
    } else {
        MPI_Type_commit(&every2);
        MPI_Bcast(a, 1, every2, 0, MPI_COMM_WORLD);
        keep = every2;
        MPI_Type_free(&every2);
        if (!strcmp(mode, "freed")) {
            MPI_Sendrecv(a, 1, keep, right, 0, b, 1, keep, left, 0, // [FREED]
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Sendrecv(a, 2, MPI_INT, right, 0, b, 2, MPI_INT, left, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            printf("rank %d: got %d %d\n", rank, a[0], a[2]);
        }
    }
    MPI_Finalize();
    return 0;
}
