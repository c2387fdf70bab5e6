/*
 * probe.c - MPI_Probe + MPI_Get_count to size the receive, then MPI_Recv.
 *
 * Rank r >= 1 sends r+2 doubles (values r + i/10) with tag r; rank 0 probes
 * each sender in rank order, allocates exactly, receives and prints.  No error.
 * stdout (rank 0): "rank 0: from r tag r count C first F last L" for each r.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int src = 1; src < size; src++) {
            MPI_Status st;
            int count;
            MPI_Probe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_DOUBLE, &count);
            double *buf = malloc((size_t)count * sizeof(double));
            MPI_Recv(buf, count, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            printf("rank 0: from %d tag %d count %d first %.1f last %.1f\n", st.MPI_SOURCE,
                   st.MPI_TAG, count, buf[0], buf[count - 1]);
            free(buf);
        }
    } else {
        double v[64];
        for (int i = 0; i < rank + 2; i++) {
            v[i] = rank + i / 10.0;
        }
        MPI_Send(v, rank + 2, MPI_DOUBLE, 0, rank, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
