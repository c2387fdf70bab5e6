/*
 * shmem_errors.c - OpenSHMEM usage errors, one per case (argv[1]); each is a
 * finding of kind mpi_error at the marked line that stops the run, exit
 * status 1 (tests/e2e/test_shmem.c):
 *   before_init     a put before shmem_init ("called before shmem_init")
 *   after_finalize  a put after shmem_finalize
 *   init_twice      shmem_init called twice
 *   nonsym          a put whose dest is a local variable ("not a symmetric
 *                   address")
 *   pe_range        a put to PE npes ("out of range")
 *   stride          shmem_int_iput with a negative stride
 *   past_end        a put that runs past the end of its heap object
 *   mismatch        PEs ask shmem_malloc for different sizes (a collective
 *                   mismatch naming both PEs and lines)
 *   order           PE 0 calls shmem_barrier_all where PE 1 calls
 *                   shmem_sync_all (a collective mismatch)
 *   free            shmem_free of a pointer shmem_malloc did not return
 *   clear_lock      shmem_clear_lock of a lock the PE does not hold
 *   cmp             shmem_int_wait_until with a comparison that does not
 *                   exist
 *   no_finalize     PEs end without shmem_finalize (one finding per PE,
 *                   at its last OpenSHMEM call, [LAST])
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static int x[4];
static long lock;

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    int v = 1;
    if (strcmp(c, "before_init") == 0)
        shmem_int_put(x, &v, 1, 0);               /* [BEFORE_INIT] */
    shmem_init();                                 /* [INIT] */
    int me = shmem_my_pe(), npes = shmem_n_pes(); /* [LAST] */
    if (strcmp(c, "init_twice") == 0)
        shmem_init(); /* [INIT_TWICE] */
    if (strcmp(c, "nonsym") == 0) {
        int local[4];
        shmem_int_put(local, &v, 1, (me + 1) % npes); /* [NONSYM] */
    }
    if (strcmp(c, "pe_range") == 0)
        shmem_int_put(x, &v, 1, npes); /* [PE_RANGE] */
    if (strcmp(c, "stride") == 0)
        shmem_int_iput(x, x, -1, 1, 2, 0); /* [STRIDE] */
    if (strcmp(c, "past_end") == 0) {
        int *p = shmem_malloc(4 * sizeof(int));
        int w[8] = {0};
        shmem_int_put(p + 2, w, 4, 0); /* [PAST_END] */
    }
    if (strcmp(c, "mismatch") == 0)
        shmem_malloc(me == 0 ? 16 : 32); /* [MISMATCH] */
    if (strcmp(c, "order") == 0) {
        if (me == 0)
            shmem_barrier_all(); /* [ORDER0] */
        else
            shmem_sync_all(); /* [ORDER1] */
    }
    if (strcmp(c, "free") == 0)
        shmem_free(x); /* [FREE] */
    if (strcmp(c, "clear_lock") == 0)
        shmem_clear_lock(&lock); /* [CLEAR_LOCK] */
    if (strcmp(c, "cmp") == 0)
        shmem_int_wait_until(x, 42, 0); /* [CMP] */
    if (strcmp(c, "no_finalize") == 0)
        return 0;
    shmem_finalize();
    if (strcmp(c, "after_finalize") == 0)
        shmem_int_put(x, &v, 1, 0); /* [AFTER_FINALIZE] */
    return 0;
}
