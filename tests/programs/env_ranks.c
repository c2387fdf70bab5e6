/*
 * env_ranks.c - the environment is per rank.
 *
 * Every rank sets ORDEX_RANK_VAR to a value of its own, rank 1 removes PATH
 * and rank 2 adds ORDEX_PUT_VAR with putenv; after a barrier each rank reads
 * them back.  No error; for rank r:
 *   rank r: var=rank r path=set put=(unset)
 * except path=(unset) on rank 1 and put=two on rank 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static char put[] = "ORDEX_PUT_VAR=two";

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char value[32];
    snprintf(value, sizeof value, "rank %d", rank);
    setenv("ORDEX_RANK_VAR", value, 1);
    if (rank == 1)
        unsetenv("PATH");
    if (rank == 2)
        putenv(put);
    MPI_Barrier(MPI_COMM_WORLD);
    const char *p = getenv("ORDEX_PUT_VAR");
    printf("rank %d: var=%s path=%s put=%s\n", rank, getenv("ORDEX_RANK_VAR"),
           getenv("PATH") ? "set" : "(unset)", p ? p : "(unset)");
    MPI_Finalize();
    return 0;
}
