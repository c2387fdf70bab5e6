/*
 * shmem_wait_mpi.c - shmem_wait_until woken by MPI data in the watched
 * variable, not by an OpenSHMEM write (OpenSHMEM 1.4 9.7.1: the variable
 * may be updated by any means).  mode (argv[1]):
 *   send    PE 1 posts MPI_Irecv into its symmetric flag, tells PE 0 it is
 *           ready (shmem_int_p) and waits for the flag to become 1 with
 *           shmem_int_wait_until ([WAIT]); PE 0 waits for the ready signal
 *           and sends 1 with MPI_Send
 *   ibcast  PE 1 starts MPI_Ibcast from PE 0 into its flag and waits for
 *           it the same way; PE 0 broadcasts 1 (MPI_Ibcast, MPI_Wait)
 *   put     PE 1's flag is also in an MPI window; PE 0 writes 1 into it
 *           with MPI_Put in a passive-target epoch (MPI_Win_lock,
 *           MPI_Win_unlock), which applies the put in PE 0's own call
 * Expected (run and explore): no error; PE 1 prints "PE 1: flag 1".
 * Before, the wait was woken only by OpenSHMEM's writes and by events at
 * PE 1 (a delivery, a collective): with `put`, a deadlock at [WAIT].
 */
#include <mpi.h>
#include <shmem.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int flag, ready;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    shmem_init();
    const char *mode = argc > 1 ? argv[1] : "send";
    int me = shmem_my_pe();
    int one = 1;
    MPI_Request req = MPI_REQUEST_NULL;
    bool bcast = strcmp(mode, "ibcast") == 0, put = strcmp(mode, "put") == 0;
    MPI_Win win;
    MPI_Win_create(&flag, sizeof flag, sizeof flag, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (me == 0) {
        /* PE 1 waits in shmem_int_wait_until before the data comes */
        shmem_int_wait_until(&ready, SHMEM_CMP_EQ, 1);
        if (put) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
            MPI_Win_unlock(1, win);
        } else if (bcast) {
            MPI_Ibcast(&one, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else
            MPI_Send(&one, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (me == 1) {
        if (bcast)
            MPI_Ibcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
        else if (!put)
            MPI_Irecv(&flag, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        shmem_int_p(&ready, 1, 0);
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1); /* [WAIT] */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    /* Collective: orders PE 0's put before PE 1 reads the flag itself. */
    MPI_Win_free(&win);
    if (me == 1)
        printf("PE 1: flag %d\n", flag);
    shmem_finalize();
    MPI_Finalize();
    return 0;
}
