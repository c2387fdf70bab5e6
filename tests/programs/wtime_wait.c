/*
 * wtime_wait.c - every rank waits a quarter of a second on MPI_Wtime, then
 * ranks 1 and 2 send their rank to rank 0, which receives with
 * MPI_ANY_SOURCE and prints the sum.
 *
 * Simulated time must advance while a rank only calls MPI_Wtime, also when
 * exploring (where measured time is left out): ordex explore -n 3 ends, with
 * no error and one outcome ("rank 0: sum 3").  ordex run -n 3: the same
 * output, after about a quarter of a second.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < 0.25) /* WAIT */
        ;
    if (rank == 0) {
        int sum = 0, v;
        for (int i = 1; i < size; i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += v;
        }
        printf("rank 0: sum %d\n", sum);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
