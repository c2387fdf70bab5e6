/*
 * thread_calls.c - MPI calls from a thread the rank creates.  Under
 * MPI_THREAD_FUNNELED (and MPI_THREAD_SINGLE) only the main thread may call
 * MPI (MPI 3.1 section 12.4.3).
 *
 *   thread_calls            the correct twin (FUNNELED): the thread only
 *                           computes and asks MPI_Is_thread_main, which may be
 *                           called from any thread; the main thread makes the MPI
 *                           calls.  Prints "rank R: sum S, thread main F, main M".
 *   thread_calls funneled   FUNNELED, the thread calls MPI_Allreduce (marked
 *                           CALL): an MPI error at that line
 *   thread_calls single     MPI_Init, the thread calls MPI_Allreduce: the same
 *   thread_calls multiple   MPI_THREAD_MULTIPLE asked for (ordex provides
 *                           FUNNELED), the thread calls MPI_Allreduce anyway:
 *                           unsupported (exit status 2), ordex's limit
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int rank, in_thread_mpi, is_main_in_thread = -1;
static int sum = -1;

static void *body(void *arg) {
    (void)arg;
    MPI_Is_thread_main(&is_main_in_thread);
    if (in_thread_mpi)
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // [CALL]
    return NULL;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int provided = -1;
    if (!strcmp(mode, "single"))
        MPI_Init(&argc, &argv);
    else
        MPI_Init_thread(&argc, &argv,
                        !strcmp(mode, "multiple") ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED,
                        &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    in_thread_mpi = *mode != '\0';
    pthread_t t;
    pthread_create(&t, NULL, body, NULL);
    pthread_join(t, NULL);
    if (!in_thread_mpi)
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int is_main = -1;
    MPI_Is_thread_main(&is_main);
    printf("rank %d: sum %d, thread main %d, main %d\n", rank, sum, is_main_in_thread, is_main);
    MPI_Finalize();
    return 0;
}
