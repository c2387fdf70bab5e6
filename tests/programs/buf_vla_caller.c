/* ordex-expect: ranks=2 past=A object=row bytes=16 */
/*
 * buf_vla_caller.c - main keeps a row of m doubles in the VLA
 * double row[m] and passes it to a helper that broadcasts m + 2 of them:
 * the buffer is a VLA of the caller's frame, found by unwinding to it, and
 * the broadcast reaches 16 bytes past its end. The twin
 * buf_vla_caller_ok.c broadcasts m.
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
    share(row, m + 2);
    MPI_Finalize();
    return 0;
}
