/*
 * bsend.c - buffered sends: MPI_Buffer_attach, MPI_Bsend, MPI_Buffer_detach.
 *
 * Every rank r >= 1 attaches a buffer, Bsends 3 messages of 2 ints to rank 0,
 * and detaches (which waits until the messages left).  Rank 0 receives them in
 * order from each rank.  No error.  stdout (rank 0): one line per sender
 *   rank 0: from r got A B C D E F
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
            int v[6];
            for (int m = 0; m < 3; m++) {
                MPI_Recv(&v[2 * m], 2, MPI_INT, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            printf("rank 0: from %d got %d %d %d %d %d %d\n", src, v[0], v[1], v[2], v[3], v[4],
                   v[5]);
        }
    } else {
        int bytes = 3 * (2 * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
        char *space = malloc((size_t)bytes);
        MPI_Buffer_attach(space, bytes);
        for (int m = 0; m < 3; m++) {
            int v[2] = {rank * 100 + m, -m};
            MPI_Bsend(v, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        void *back;
        int back_bytes;
        MPI_Buffer_detach(&back, &back_bytes);
        free(back);
    }
    MPI_Finalize();
    return 0;
}
