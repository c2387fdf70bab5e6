/* ordex-expect: ranks=2 race=A,B */
/*
 * rma_race_shmem_mpi.c - a program of MPI and OpenSHMEM: PE 0 puts into x on PE 1 and
 * sends PE 1 an MPI message, which PE 1 receives before loading x.  The
 * message orders the PEs but completes no put: a data race.  The twin
 * rma_race_shmem_mpi_ok.c calls shmem_quiet before the send.
 */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>

static int x[4];

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    shmem_init();
    int me = shmem_my_pe();
    int t = 1, v = 6;
    if (me == 0) {
        shmem_int_put(x, &v, 1, 1); /* [A] */
        MPI_Send(&t, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&t, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("%d\n", x[0]); /* [B] */
    }
    shmem_finalize();
    MPI_Finalize();
    return 0;
}
