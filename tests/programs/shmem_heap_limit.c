/*
 * shmem_heap_limit.c - the symmetric heap's size (tests/e2e/test_shmem.c).
 * Under SHMEM_SYMMETRIC_SIZE=4KiB, a shmem_malloc of 3000 bytes succeeds, a
 * second one of 3000 finds no room and returns NULL on every PE (OpenSHMEM
 * 1.4 9.3.1), and after the first is freed a third of 3000 fits again.
 * ordex warns at the second ([FULL], kind symmetric_heap_full: the heap
 * holds 4096 bytes with 3000 in use).
 * Expected stdout, one line per PE p: "PE p: 1 0 1".  Without the variable,
 * the default size (256 MiB) holds all three: "PE p: 1 1 1".  A value that is
 * not a size is an error at shmem_init ([INIT]).
 */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init(); /* [INIT] */
    char *a = shmem_malloc(3000);
    char *b = shmem_malloc(3000); /* [FULL] */
    shmem_free(a);
    char *c = shmem_malloc(3000);
    printf("PE %d: %d %d %d\n", shmem_my_pe(), a != NULL, b != NULL, c != NULL);
    shmem_free(c);
    shmem_finalize();
    return 0;
}
