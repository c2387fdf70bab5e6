/*
 * intercomm_errors.c - misuses of intercommunicators and what ordex does
 * not implement on them, one per case (argv[1]); run with 4 ranks.  The
 * even world ranks and the odd ones are the two groups.
 *
 *   samecomm     both groups pass MPI_COMM_WORLD as local_comm, with different
 *                local leaders: [mpi_error] at [SAMECOMM]
 *   notinter     MPI_Comm_remote_size of MPI_COMM_WORLD: [mpi_error] at [NOTINTER]
 *   remoterank   MPI_Send to rank 2 of a remote group of 2: [mpi_error] at [REMOTERANK]
 *   tags         the leaders pass different tags: the groups never meet, a
 *                [deadlock] with every rank in MPI_Intercomm_create at [TAGS]
 *   collective   MPI_Barrier on the intercommunicator: no error (a
 *                collective of both groups, intercoll.c has the others)
 *   race         world rank 0 takes one message from MPI_ANY_SOURCE of the
 *                odd group, which both send: explore finds the two outcomes
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    const char *c = argc > 1 ? argv[1] : "";
    int color = wrank % 2, x = wrank;
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local);
    if (!strcmp(c, "samecomm")) {
        MPI_Comm w = MPI_COMM_WORLD;
        MPI_Intercomm_create(w, color, w, !color, 0, &ic); /* [SAMECOMM] */
    } else if (!strcmp(c, "notinter")) {
        int n;
        MPI_Comm_remote_size(MPI_COMM_WORLD, &n); /* [NOTINTER] */
    } else if (!strcmp(c, "tags")) {
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, !color, color, &ic); /* [TAGS] */
    } else {
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, !color, 0, &ic);
        if (!strcmp(c, "remoterank") && wrank == 0) {
            MPI_Send(&x, 1, MPI_INT, 2, 0, ic); /* [REMOTERANK] */
        } else if (!strcmp(c, "collective")) {
            MPI_Barrier(ic); /* [COLLECTIVE] */
        } else if (!strcmp(c, "race")) {
            if (color == 1) {
                MPI_Send(&x, 1, MPI_INT, 0, 0, ic);
            } else if (wrank == 0) {
                int a, b;
                MPI_Status st;
                MPI_Recv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 0, ic, &st);
                MPI_Recv(&b, 1, MPI_INT, 1 - st.MPI_SOURCE, 0, ic, MPI_STATUS_IGNORE);
                printf("rank 0: first from world rank %d\n", a);
            }
        }
        MPI_Comm_free(&ic);
    }
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
