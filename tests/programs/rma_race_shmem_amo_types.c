/* ordex-expect: ranks=3 race=A,B */
/*
 * rma_race_shmem_amo_types.c - PE 0 adds to an int of PE 1 with shmem_int_atomic_add and
 * PE 2 with shmem_uint_atomic_add: atomicity holds only among atomics of
 * one type (OpenSHMEM 1.4 9.8), a data race.  The element is a union of
 * both types, so that each call's type is that of a member.
 */
#include <shmem.h>
#include <stdio.h>

static union {
    int i;
    unsigned u;
} x[4];

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    if (me == 0)
        shmem_int_atomic_add(&x[0].i, 1, 1); /* [A] */
    if (me == 2)
        shmem_uint_atomic_add(&x[0].u, 1, 1); /* [B] */
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
