/*
 * predict_measure.c - what `ordex predict` measures as computation: the CPU
 * time a rank uses between MPI calls (tests/e2e/test_predict.c).  argv[1]:
 *
 *   sleep   rank 0 sleeps 300 ms between two barriers: sleeping is no
 *           computation, so its predicted compute time stays far below
 *           300 ms (wall-clock time counted all of it)
 *   spin    rank 0 computes 300 ms of its CPU time between two barriers;
 *           with another process busy on the same CPU the OS takes the CPU
 *           from it again and again, and the report says that the
 *           measurement was disturbed
 *
 * Each prints "done" from rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "sleep";
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && strcmp(mode, "sleep") == 0) {
        struct timespec ts = {0, 300000000};
        while (nanosleep(&ts, &ts) != 0)
            ;
    } else if (rank == 0 && strcmp(mode, "spin") == 0) {
        volatile double x = 0;
        double until = cpu_now() + 0.3;
        while (cpu_now() < until)
            for (int i = 0; i < 1000; i++)
                x += i;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("done\n");
    MPI_Finalize();
    return 0;
}
