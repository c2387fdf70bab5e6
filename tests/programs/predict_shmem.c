/*
 * predict_shmem.c - OpenSHMEM timings that `ordex predict` must get
 * exactly (tests/e2e/test_predict.c, --ignore-compute, platform
 * tests/programs/predict_rma.ini: 1 ms latency, 1 MB/s, one PE per node,
 * no overheads: a message of B bytes takes 1 ms + B us).  PEs print when
 * their calls returned ("rank R done at T us", from MPI_Wtime: the program
 * initialises MPI too, which costs nothing).  argv[1] picks the case; the
 * times below follow the model of simulator/timed_shmem.h.
 *
 * shmem_init is a barrier: MPICH's dissemination barrier, on 2 PEs one
 * round of empty messages, so every PE leaves it at 1000 us.
 *
 *   put      PE 0 puts 1 MB into PE 1 (shmem_putmem) and calls shmem_quiet:
 *            the put leaves at 1000 us and arrives 1 ms + 1 s later, so
 *            "rank 0 done at 1002000.000 us"
 *   get      PE 0 gets 1 MB from PE 1: a request (1 ms) and the reply
 *            (1 ms + 1 s): "rank 0 done at 1003000.000 us"
 *   fadd     PE 0's shmem_int_atomic_fetch_add on PE 1: 4 bytes out
 *            (1.004 ms), 1 ns of computation, 4 bytes back (1.004 ms):
 *            "rank 0 done at 3008.001 us"
 *   wait     PE 0 sets PE 1's flag with shmem_int_p (4 bytes, leaving at
 *            1000 us, arriving at 2004 us); PE 1 waits for it with
 *            shmem_int_wait_until and goes on once the put has arrived:
 *            "rank 1 done at 2004.000 us"
 */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#define MB 1000000

static char big[MB];
static int counter, flag;

static double now_us(void) {
    return MPI_Wtime() * 1e6;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    shmem_init();
    const char *mode = argc > 1 ? argv[1] : "put";
    int me = shmem_my_pe();
    static char local[MB];
    if (strcmp(mode, "put") == 0 && me == 0) {
        shmem_putmem(big, local, MB, 1);
        shmem_quiet();
        printf("rank 0 done at %.3f us\n", now_us());
    } else if (strcmp(mode, "get") == 0 && me == 0) {
        shmem_getmem(local, big, MB, 1);
        printf("rank 0 done at %.3f us\n", now_us());
    } else if (strcmp(mode, "fadd") == 0 && me == 0) {
        shmem_int_atomic_fetch_add(&counter, 1, 1);
        printf("rank 0 done at %.3f us\n", now_us());
    } else if (strcmp(mode, "wait") == 0) {
        if (me == 0)
            shmem_int_p(&flag, 1, 1);
        if (me == 1) {
            shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
            printf("rank 1 done at %.3f us\n", now_us());
        }
    }
    shmem_finalize();
    MPI_Finalize();
    return 0;
}
