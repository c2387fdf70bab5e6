/*
 * dup_request.c - one request twice in the array of a completion call:
 * erroneous (completing the first entry frees the request the second names).
 *
 *   dup_request KIND    KIND: waitall, testall, waitany, waitsome, testany,
 *                       testsome.  Every rank posts an MPI_Irecv (marked
 *                       IRECV) and an MPI_Isend, then passes {recv, send,
 *                       recv} to the call (marked CALL): an MPI error at
 *                       the call naming indices 0 and 2 and the MPI_Irecv.
 *   dup_request         the correct twin: {recv, send, MPI_REQUEST_NULL},
 *                       for every kind; prints "rank R: got V" per kind.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void one(const char *kind, int dup) {
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int s = rank, r = -1;
    MPI_Request rq[3];
    MPI_Status st[3];
    MPI_Irecv(&r, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &rq[0]); // [IRECV]
    MPI_Isend(&s, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &rq[1]);
    rq[2] = dup ? rq[0] : MPI_REQUEST_NULL;
    int done = 0, idx, flag, outc, out[3];
    /* Until both are complete, with the call under test first. */
    while (done < 2) {
        if (!strcmp(kind, "waitall")) {
            MPI_Waitall(3, rq, st); // [CALL]
        } else if (!strcmp(kind, "testall")) {
            MPI_Testall(3, rq, &flag, st); // [CALL]
        } else if (!strcmp(kind, "waitany")) {
            MPI_Waitany(3, rq, &idx, st); // [CALL]
        } else if (!strcmp(kind, "testany")) {
            MPI_Testany(3, rq, &idx, &flag, st); // [CALL]
        } else if (!strcmp(kind, "waitsome")) {
            MPI_Waitsome(3, rq, &outc, out, st); // [CALL]
        } else {
            MPI_Testsome(3, rq, &outc, out, st); // [CALL]
        }
        done = (rq[0] == MPI_REQUEST_NULL) + (rq[1] == MPI_REQUEST_NULL);
    }
    printf("rank %d: %s got %d\n", rank, kind, r);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *kinds[] = {"waitall", "testall", "waitany", "testany", "waitsome", "testsome"};
    if (argc > 1)
        one(argv[1], 1);
    else
        for (int k = 0; k < 6; k++)
            one(kinds[k], 0);
    MPI_Finalize();
    return 0;
}
