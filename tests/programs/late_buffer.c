/*
 * late_buffer.c - a message lands in a rank's buffer while that rank waits
 * for something else.
 *
 * Needs 4 ranks.  Rank 1 posts MPI_Irecv(box, from rank 2) and then blocks
 * in MPI_Recv(from rank 0) until the very end.  Rank 3 receives four
 * messages with MPI_ANY_SOURCE, two from rank 0 and two from rank 2; between
 * its choices, rank 2 sends into rank 1's box, so two states hashed at rank
 * 3's choices differ only in box, in the memory of rank 1, which has not run
 * in between.  Incremental state hashing must see that write.  Correct: no
 * error, rank 1 prints "box 42".
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 4) {
        int v = rank, box = 0, done = 0;
        MPI_Request rq;
        if (rank == 0) {
            MPI_Send(&v, 1, MPI_INT, 3, 5, MPI_COMM_WORLD);
            MPI_Send(&v, 1, MPI_INT, 3, 5, MPI_COMM_WORLD);
            MPI_Recv(&done, 1, MPI_INT, 3, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Irecv(&box, 1, MPI_INT, 2, 7, MPI_COMM_WORLD, &rq);
            MPI_Recv(&done, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            printf("box %d\n", box);
        } else if (rank == 2) {
            int x = 42;
            MPI_Send(&v, 1, MPI_INT, 3, 5, MPI_COMM_WORLD);
            MPI_Send(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
            MPI_Send(&v, 1, MPI_INT, 3, 5, MPI_COMM_WORLD);
        } else if (rank == 3) {
            for (int i = 0; i < 4; i++)
                MPI_Recv(&done, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&done, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
