/*
 * fixed_match.c - blocking receives and sends whose match MPI fixes, next to
 * receives posted earlier that take the same messages first (ordex run
 * completes a fixed match at once instead of at the scheduler's turn; the
 * matching rules must come out as MPI states them).
 *
 * 3 ranks.  A: rank 1 posts MPI_Irecv(source 0, MPI_ANY_TAG), tells rank 0
 * to go and blocks in MPI_Recv(source 0, tag 5); rank 0 sends 1 then 2 with
 * tag 5: the earlier receive gets 1, the blocking one 2.  B: rank 0 sends
 * tags 7, 8, 7 (values 10, 20, 30) to rank 2 with MPI_Isend, then a go
 * message; rank 2 receives tag 8, tag 7, any tag: 20, 10, 30
 * (non-overtaking).  C: rank 1 posts MPI_Irecv(source 2, tag 9) and then
 * blocks in MPI_Recv(source 2, tag 9); rank 2 MPI_Ssends 100 then 200: 100 to
 * the first, 200 to the second.  D: rank 2 receives one message from each of ranks 0 and 1 with
 * MPI_ANY_SOURCE (the sum is fixed, the order is not).  No error.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, go = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int one = 1, two = 2;
        MPI_Send(&one, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&two, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        int v[3] = {10, 20, 30}, tags[3] = {7, 8, 7};
        MPI_Request reqs[3];
        for (int i = 0; i < 3; i++)
            MPI_Isend(&v[i], 1, MPI_INT, 2, tags[i], MPI_COMM_WORLD, &reqs[i]);
        MPI_Send(&go, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
        MPI_Status sts[3];
        MPI_Waitall(3, reqs, sts);
        int d = 1000;
        MPI_Send(&d, 1, MPI_INT, 2, 11, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int a = -1, b = -1;
        MPI_Request req;
        MPI_Irecv(&a, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
        MPI_Send(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(&b, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 1: A earlier receive %d, blocking receive %d\n", a, b);
        int c = -1, e = -1;
        MPI_Irecv(&c, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, &req);
        MPI_Recv(&e, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("rank 1: C earlier receive %d, blocking receive %d\n", c, e);
        int d = 2000;
        MPI_Send(&d, 1, MPI_INT, 2, 11, MPI_COMM_WORLD);
    } else if (rank == 2) {
        int x, y, z;
        MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&z, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 2: B tag 8 %d, tag 7 %d, any tag %d\n", x, y, z);
        int h = 100, k = 200;
        MPI_Ssend(&h, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        MPI_Ssend(&k, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        int s = 0;
        for (int i = 0; i < 2; i++) {
            int d;
            MPI_Recv(&d, 1, MPI_INT, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            s += d;
        }
        printf("rank 2: D sum %d\n", s);
    }
    MPI_Finalize();
    return 0;
}
