/*
 * mprobe.c - matched probe: MPI_Mprobe + MPI_Get_count + MPI_Mrecv.
 *
 * Every rank r >= 1 sends r ints (values r*100 + i) with tag 10+r; rank 0
 * takes them in any order with MPI_Mprobe(MPI_ANY_SOURCE), receives each with
 * MPI_Mrecv and adds everything up.  No error; stdout (rank 0):
 *   rank 0: N messages, C ints, total T
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int ints = 0, msgs = 0;
        long total = 0;
        for (int k = 1; k < size; k++) {
            MPI_Message msg;
            MPI_Status st;
            int count, buf[64];
            MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &msg, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            MPI_Mrecv(buf, count, MPI_INT, &msg, &st);
            msgs += st.MPI_TAG == 10 + st.MPI_SOURCE && count == st.MPI_SOURCE;
            for (int i = 0; i < count; i++) {
                total += buf[i];
            }
            ints += count;
        }
        printf("rank 0: %d messages, %d ints, total %ld\n", msgs, ints, total);
    } else {
        int buf[64];
        for (int i = 0; i < rank; i++) {
            buf[i] = rank * 100 + i;
        }
        MPI_Send(buf, rank, MPI_INT, 0, 10 + rank, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
