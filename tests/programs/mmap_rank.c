/*
 * mmap_rank.c - a rank that maps memory of its own between two message
 * matches.
 *
 * Ranks 1 and 2 each send one int to rank 0, which receives twice with
 * MPI_ANY_SOURCE and, after the first message, keeps it in a page it maps
 * with mmap.  No ordering is an error (the output differs with the order).
 *
 * ordex explore -n 3 (fork snapshots): no error, exit status 0.
 * ordex explore --checkpoint=copy -n 3: in-process snapshots cannot put such
 * a mapping back, so the search stops, incomplete, saying to use
 * --checkpoint=fork (never a wrong verdict).
 */
#include <mpi.h>
#include <stdio.h>
#include <sys/mman.h>

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
        MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED)
            return 1;
        page[0] = first;
        MPI_Recv(&second, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: %d then %d\n", page[0], second);
        munmap(page, 4096);
    } else if (rank <= 2) {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
