/*
 * op_forbidden.c - predefined reductions on types the standard does not
 * define them for (MPI 3.1 section 5.9.2), which MPICH takes all the same:
 * errors under ordex, whose message says both.
 *
 *   op_forbidden sum_char      MPI_Allreduce of MPI_CHAR with MPI_SUM (SUM_CHAR)
 *   op_forbidden land_aint     MPI_Reduce of MPI_AINT with MPI_LAND (LAND_AINT)
 *   op_forbidden lxor_double   MPI_Allreduce of MPI_DOUBLE with MPI_LXOR (LXOR_DOUBLE)
 *   op_forbidden               the correct twin: MPI_SUM on MPI_SIGNED_CHAR, MPI_BAND
 *                              on MPI_AINT, MPI_LXOR on MPI_INT; prints the results
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
    char c = 1, csum = 0;
    MPI_Aint a = rank + 1, aand = 0;
    double d = 1.0, dx = 0;
    if (!strcmp(mode, "sum_char")) {
        MPI_Allreduce(&c, &csum, 1, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD); // [SUM_CHAR]
    } else if (!strcmp(mode, "land_aint")) {
        MPI_Reduce(&a, &aand, 1, MPI_AINT, MPI_LAND, 0, MPI_COMM_WORLD); // [LAND_AINT]
    } else if (!strcmp(mode, "lxor_double")) {
        MPI_Allreduce(&d, &dx, 1, MPI_DOUBLE, MPI_LXOR, MPI_COMM_WORLD); // [LXOR_DOUBLE]
    } else {
        signed char sc = 1, scsum = 0;
        MPI_Allreduce(&sc, &scsum, 1, MPI_SIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&a, &aand, 1, MPI_AINT, MPI_BAND, MPI_COMM_WORLD);
        int one = 1, x = -1;
        MPI_Allreduce(&one, &x, 1, MPI_INT, MPI_LXOR, MPI_COMM_WORLD);
        printf("rank %d: sum %d band %ld lxor %d\n", rank, scsum, (long)aand, x);
    }
    MPI_Finalize();
    return 0;
}
