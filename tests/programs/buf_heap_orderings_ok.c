/* ordex-expect: ranks=3 clean */
/*
 * buf_heap_orderings_ok.c - heap blocks that differ from one ordering to
 * another: rank 0 receives from MPI_ANY_SOURCE twice, and what it allocates
 * (a large block or a small one, kept or freed) depends on who came first;
 * then it sends back an array of exactly the size the sender asked for.
 * Every ordering is clean: the blocks an exploration finds after restoring
 * a snapshot are those of its own ordering.  With an argument, rank 0
 * sends that many ints more than the block holds (an error in every
 * ordering, against the block of that ordering).
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int extra = argc > 1 ? atoi(argv[1]) : 0;
    if (rank == 0) {
        for (int round = 0; round < 2; round++) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            size_t sz = st.MPI_SOURCE == 1 ? 100000 + 4096 * (size_t)round : 24 + 8 * (size_t)round;
            char *keep = malloc(sz);
            memset(keep, 1, sz);
            int *p = malloc((size_t)v * sizeof(int));
            for (int i = 0; i < v; i++)
                p[i] = i;
            MPI_Send(p, v + extra, MPI_INT, st.MPI_SOURCE, 1, MPI_COMM_WORLD); /* [SEND] */
            if (round == 0)
                free(keep);
            free(p);
        }
    } else if (rank <= 2) {
        int v = rank == 1 ? 3 : 5000, back[6000];
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(back, 6000, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
