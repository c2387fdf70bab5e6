/*
 * livelock_some.c - rank 0 loops forever only in the orderings where rank 2's
 * message is matched first.
 *
 * Ranks 1 and 2 each send one int to rank 0, which receives twice with
 * MPI_ANY_SOURCE.  If the first message comes from rank 2, rank 0 spins
 * forever without calling MPI (between the lines marked FAULT and FAULT_END).
 *
 * ordex explore --step-timeout 1 -n 3 must report [livelock] on rank 0 in that
 * loop, exit with status 1, and still finish the exploration (the orderings
 * where rank 1's message comes first run to the end).  ordex run -n 3 (natural
 * order: rank 1 first): no error, stdout "rank 0: first 1, then 2".
 */
#include <mpi.h>
#include <stdio.h>

static volatile unsigned long spins;

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) {
        MPI_Finalize();
        return 0;
    }
    if (rank == 0) {
        int first, second;
        MPI_Status st;
        MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st); /* ANY */
        if (st.MPI_SOURCE == 2) {
            for (;;) { /* FAULT */
                spins++;
            } /* FAULT_END */
        }
        MPI_Recv(&second, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
        printf("rank 0: first %d, then %d\n", first, second);
        fflush(stdout);
    } else if (rank <= 2) {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
