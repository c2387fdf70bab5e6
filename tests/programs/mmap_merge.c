/*
 * mmap_merge.c - a rank that maps memory of its own after the first message
 * it receives, in a search where states merge.
 *
 * Every other rank sends its rank to rank 0, which receives them with
 * MPI_ANY_SOURCE, adds them up and, after the first, keeps a page it maps with
 * mmap (unmapped at the end).  Orderings that have received the same set of
 * ranks reach the same state.  No ordering is an error; every one prints
 * "sum S" with S = 1 + ... + (size - 1).
 *
 * ordex explore --no-por -n 5 (copy snapshots, the default): the copies
 * cannot put the mapping back, so the search goes on with fork snapshots
 * after the first ordering; the states visited before the switch stay
 * merge targets, so the counts are those of --checkpoint=fork: 22
 * branching states, 12 merged, 24 orderings.
 */
#include <mpi.h>
#include <stdio.h>
#include <sys/mman.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int sum = 0, v;
        int *page = NULL;
        for (int i = 1; i < size; i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += v;
            if (i == 1)
                page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            v = 0;
        }
        page[0] = sum;
        printf("sum %d\n", page[0]);
        munmap(page, 4096);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
