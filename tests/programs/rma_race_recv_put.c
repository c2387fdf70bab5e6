/* ordex-expect: ranks=3 race=A,B
 * known-bug: only the buffers of nonblocking point-to-point requests are
 * records; the write of a blocking MPI_Recv into window memory is not
 * checked against RMA operations */
/*
 * rma_race_recv_put.c - rank 1 receives a message from rank 2 with a
 * blocking MPI_Recv into int 1 of its own window, while rank 0 puts to that
 * int under MPI_Win_lock_all.  The receive writes the int, and so does the
 * put until the unlock, with nothing ordering them (MPI 3.1 11.7): a data
 * race.  rma_race_irecv_put.c is the same with MPI_Irecv, and
 * rma_race_irecv_put_ok.c the correct twin of both.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, buf[4] = {0, 0, 0, 0}, v;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v = 10 + rank;
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 1, 1, MPI_INT, win); /* [A] */
        MPI_Win_unlock_all(win);
    } else if (rank == 1) {
        MPI_Recv(&buf[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* [B] */
    } else {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
