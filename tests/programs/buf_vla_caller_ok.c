/* ordex-expect: ranks=2 clean */
/*
 * buf_vla_caller_ok.c - the correct twin of buf_vla_caller.c: the helper
 * broadcasts the m doubles of the caller's VLA double row[m].
 */
#include <mpi.h>

static void share(double *v, int count) {
    MPI_Bcast(v, count, MPI_DOUBLE, 0, MPI_COMM_WORLD); /* [A] */
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int m = argc + 5;
    double row[m];
    for (int i = 0; i < m; i++)
        row[i] = i;
    share(row, m);
    MPI_Finalize();
    return 0;
}
