/*
 * rma_errors.c - one RMA usage error per case (argv[1]); run with 3 ranks.
 *
 * ordex must report, for each case, one [mpi_error] at the line marked with
 * the case's name in capitals (e.g. [NOEPOCH]), exit status 1:
 *   noepoch      MPI_Put with no access epoch open
 *   othertarget  MPI_Put to rank 2 while holding a lock on rank 1 only
 *   unlock       MPI_Win_unlock without MPI_Win_lock
 *   relock       MPI_Win_lock of a target this rank has locked already
 *   mixfence     MPI_Win_fence while holding a lock (passive + active target)
 *   mixlock      MPI_Win_lock with operations pending in a fence epoch
 *   complete     MPI_Win_complete without MPI_Win_start
 *   waitnopost   MPI_Win_wait without MPI_Win_post
 *   range        MPI_Put past the end of the target's window
 *   disp         MPI_Put with a negative target displacement
 *   userop       MPI_Accumulate with a user-defined operation
 *   acctype      MPI_Accumulate of MPI_INT into MPI_DOUBLE
 *   freeopen     MPI_Win_free with a lock held
 *   freepending  MPI_Win_free with a put of the fence epoch not completed
 *   winnull      MPI_Put on MPI_WIN_NULL
 *   freed        MPI_Put on a window freed before
 *   nullbase     MPI_Win_create with a NULL base and 16 bytes
 *   negsize      MPI_Win_create with size -8
 *   assert       MPI_Win_fence with an assertion bit MPI does not define
 *   locktype     MPI_Win_lock with lock type 17
 *   rput         MPI_Rput in a fence epoch (request-based calls need a lock)
 *   noprecede    MPI_Win_fence(MPI_MODE_NOPRECEDE) after a put of this rank
 *   freemem      MPI_Free_mem of memory that MPI_Alloc_mem did not give
 *   nolocks      MPI_Win_lock of a window rank 1 created with the info no_locks=true
 *   samesize     MPI_Win_create with the info same_size=true (rank 0) and sizes that differ
 * and, without a finding (exit status 0):
 *   errreturn    the window's error handler is MPI_ERRORS_RETURN: MPI_Win_unlock
 *                without lock returns MPI_ERR_RMA_SYNC, printed by rank 0
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void myop(void *in, void *inout, int *len, MPI_Datatype *type) {}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *c = argc > 1 ? argv[1] : "";
    int buf[4] = {0}, v = 1;
    MPI_Win win;
    if (!strcmp(c, "nullbase")) {
        MPI_Win_create(NULL, 16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* [NULLBASE] */
    } else if (!strcmp(c, "negsize")) {
        MPI_Win_create(buf, -8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* [NEGSIZE] */
    }
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (!strcmp(c, "noepoch")) {
        MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win); /* [NOEPOCH] */
    } else if (!strcmp(c, "othertarget") && rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&v, 1, MPI_INT, 2, 0, 1, MPI_INT, win); /* [OTHERTARGET] */
    } else if (!strcmp(c, "unlock")) {
        MPI_Win_unlock(1, win); /* [UNLOCK] */
    } else if (!strcmp(c, "relock") && rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win); /* [RELOCK] */
    } else if (!strcmp(c, "mixfence")) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Win_fence(0, win); /* [MIXFENCE] */
    } else if (!strcmp(c, "mixlock")) {
        MPI_Win_fence(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win); /* [MIXLOCK] */
    } else if (!strcmp(c, "complete")) {
        MPI_Win_complete(win); /* [COMPLETE] */
    } else if (!strcmp(c, "waitnopost")) {
        MPI_Win_wait(win); /* [WAITNOPOST] */
    } else if (!strcmp(c, "range")) {
        MPI_Win_fence(0, win);
        MPI_Put(buf, 2, MPI_INT, 1, 3, 2, MPI_INT, win); /* [RANGE] */
    } else if (!strcmp(c, "disp")) {
        MPI_Win_fence(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, -1, 1, MPI_INT, win); /* [DISP] */
    } else if (!strcmp(c, "userop")) {
        MPI_Op op;
        MPI_Op_create(myop, 1, &op);
        MPI_Win_fence(0, win);
        MPI_Accumulate(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, op, win); /* [USEROP] */
    } else if (!strcmp(c, "acctype")) {
        MPI_Win_fence(0, win);
        MPI_Accumulate(buf, 2, MPI_INT, 1, 0, 1, MPI_DOUBLE, MPI_SUM, win); /* [ACCTYPE] */
    } else if (!strcmp(c, "freeopen")) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Win_free(&win); /* [FREEOPEN] */
    } else if (!strcmp(c, "freepending")) {
        MPI_Win_fence(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_free(&win); /* [FREEPENDING] */
    } else if (!strcmp(c, "winnull")) {
        MPI_Win none = MPI_WIN_NULL;
        MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, none); /* [WINNULL] */
    } else if (!strcmp(c, "freed")) {
        MPI_Win copy = win;
        MPI_Win_free(&win);
        MPI_Win_fence(0, copy); /* [FREED] */
    } else if (!strcmp(c, "assert")) {
        MPI_Win_fence(1, win); /* [ASSERT] */
    } else if (!strcmp(c, "locktype")) {
        MPI_Win_lock(17, 1, 0, win); /* [LOCKTYPE] */
    } else if (!strcmp(c, "rput")) {
        MPI_Request req;
        MPI_Win_fence(0, win);
        MPI_Rput(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win, &req); /* [RPUT] */
    } else if (!strcmp(c, "noprecede")) {
        MPI_Win_fence(0, win);
        MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        MPI_Win_fence(MPI_MODE_NOPRECEDE, win); /* [NOPRECEDE] */
    } else if (!strcmp(c, "freemem")) {
        void *mem;
        MPI_Alloc_mem(16, MPI_INFO_NULL, &mem);
        MPI_Free_mem(mem);
        MPI_Free_mem(mem); /* [FREEMEM] */
    } else if (!strcmp(c, "nolocks")) {
        MPI_Info info;
        MPI_Info_create(&info);
        if (rank == 1)
            MPI_Info_set(info, "no_locks", "true");
        MPI_Win w2;
        MPI_Win_create(buf, sizeof buf, sizeof(int), info, MPI_COMM_WORLD, &w2);
        MPI_Info_free(&info);
        if (rank == 0)
            MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, w2); /* [NOLOCKS] */
    } else if (!strcmp(c, "samesize")) {
        MPI_Info info;
        MPI_Info_create(&info);
        if (rank == 0)
            MPI_Info_set(info, "same_size", "true");
        MPI_Win w2;
        MPI_Win_create(buf, rank == 1 ? 8 : 16, 1, info, MPI_COMM_WORLD, &w2); /* [SAMESIZE] */
    } else if (!strcmp(c, "errreturn")) {
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        int rc = MPI_Win_unlock(1, win); /* [ERRRETURN] */
        int cls;
        MPI_Error_class(rc, &cls);
        if (rank == 0)
            printf("rank 0: MPI_Win_unlock returned %s\n",
                   cls == MPI_ERR_RMA_SYNC ? "MPI_ERR_RMA_SYNC" : "something else");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(c, "freed") != 0)
        MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
