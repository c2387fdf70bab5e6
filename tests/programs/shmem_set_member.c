/*
 * shmem_set_member.c - a collective called by a PE outside its active set.
 * PE 2 calls shmem_barrier on PEs 0 and 1 (PE_start 0, PE_size 2).
 * Expected with 3 PEs: an MPI error at [BARRIER] on PE 2, "PE 2 is not in
 * the active set PE_start=0, logPE_stride=0, PE_size=2".
 */
#include <shmem.h>

static long bs[SHMEM_BARRIER_SYNC_SIZE];

int main(void) {
    shmem_init();
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        bs[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (shmem_my_pe() == 2)
        shmem_barrier(0, 0, 2, bs); /* [BARRIER] */
    shmem_finalize();
    return 0;
}
