/*
 * shmem_mpi_header.c - a program of MPI and OpenSHMEM, with shmem.h
 * included as <mpp/shmem.h> (Open MPI's other name for it): it gets MPICH's
 * mpi.h, whose MPI_COMM_WORLD is 0x44000000 (Open MPI's mpi.h, which lies
 * beside its shmem.h, would make it a pointer), and OpenSHMEM 1.4's
 * version.  PE 0 puts 42 into x of every PE (itself included), quiets and
 * sends each an MPI message; each then prints (tests/e2e/test_shmem.c):
 *   PE p: MPI_COMM_WORLD 0x44000000 OpenSHMEM 1.4 x 42
 */
#include <mpi.h>
#include <mpp/shmem.h>
#include <stdio.h>

static int x;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), major, minor, t = 0;
    if (me == 0) {
        for (int p = 0; p < npes; p++)
            shmem_int_p(&x, 42, p);
        shmem_quiet();
        for (int p = 1; p < npes; p++)
            MPI_Send(&t, 1, MPI_INT, p, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&t, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    shmem_info_get_version(&major, &minor);
    printf("PE %d: MPI_COMM_WORLD %#x OpenSHMEM %d.%d x %d\n", me, (unsigned)MPI_COMM_WORLD, major,
           minor, x);
    shmem_finalize();
    MPI_Finalize();
    return 0;
}
