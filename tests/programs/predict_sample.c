/*
 * predict_sample.c - ORDEX_SAMPLE and ordex_fake_alloc (tests/e2e/test_predict.c).
 *
 * Each rank runs a loop of 100 steps whose body is sampled with
 * ORDEX_SAMPLE(3): under `ordex predict` the body runs the first 3 times
 * and is charged its average CPU time afterwards, so each rank prints
 * "rank R: body ran 3 times"; under `ordex run` (and with mpicc) it runs
 * every time: "body ran 100 times".  The loop's data lives in 1 GiB of
 * ordex_fake_alloc memory, written at both ends ("fake memory ok").
 */
#include <mpi.h>
#include <ordex.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t big = (size_t)1 << 30;
    char *data = ordex_fake_alloc(big);
    if (data) {
        memset(data, 1, 4096);
        data[big - 1] = 7;
        printf("rank %d: fake memory ok\n", rank);
    }
    volatile double acc = 0;
    int ran = 0;
    for (int step = 0; step < 100; step++)
        ORDEX_SAMPLE(3) {
            ran++;
            for (int i = 0; i < 100000; i++)
                acc += i * 0.5;
        }
    printf("rank %d: body ran %d times\n", rank, ran);
    ordex_fake_free(data);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
