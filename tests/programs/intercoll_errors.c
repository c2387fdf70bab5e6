/*
 * intercoll_errors.c - misuses of collectives on an intercommunicator, one
 * per case (argv[1]); run with 4 ranks.  The even world ranks and the odd
 * ones are the two groups; the even group's rank 0 (world rank 0) is the
 * root where one is needed.  Each is an [mpi_error] (exit status 1) at its
 * marker, in `run` and in every ordering `explore` runs, never a hang:
 *
 *   scan       MPI_Scan on the intercommunicator: [SCAN] (MPI_ERR_COMM)
 *   noroot     MPI_Bcast where every even rank passes MPI_PROC_NULL (no
 *              MPI_ROOT) and the odd ones 0: [NOROOT]
 *   tworoots   both even ranks pass MPI_ROOT: [TWOROOTS]
 *   wrongroot  the odd group names rank 1 of the even group, whose rank 0
 *              is the root: [WRONGROOT]
 *   inplace    MPI_Allreduce with MPI_IN_PLACE: [INPLACE]
 *   count      MPI_Gather where the root expects 2 ints from each and the
 *              odd ranks send 1: [COUNT]
 *   kinds      the even group calls MPI_Bcast, the odd one MPI_Reduce:
 *              a collective mismatch at [KINDS]
 *   missing    the odd group never calls the barrier the even one waits in:
 *              a [deadlock] naming MPI_Barrier at [MISSING]
 *   named      like wrongroot on an intercommunicator named "pairs": the
 *              report names it
 *
 * And one correct case, bystander: in an MPI_Igather to world rank 0 the
 * other even ranks (MPI_PROC_NULL) pass x as send buffer, which is not
 * significant there, and write x before their MPI_Wait: no race.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    const char *c = argc > 1 ? argv[1] : "";
    int even = wrank % 2 == 0;
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, even, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, even ? 1 : 0, 0, &ic);
    int lrank;
    MPI_Comm_rank(ic, &lrank);
    int x[4] = {wrank, wrank, wrank, wrank}, y[8];
    int root = even ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    if (!strcmp(c, "scan")) {
        MPI_Scan(x, y, 1, MPI_INT, MPI_SUM, ic); /* [SCAN] */
    } else if (!strcmp(c, "noroot")) {
        MPI_Bcast(x, 1, MPI_INT, even ? MPI_PROC_NULL : 0, ic); /* [NOROOT] */
    } else if (!strcmp(c, "tworoots")) {
        MPI_Bcast(x, 1, MPI_INT, even ? MPI_ROOT : 0, ic); /* [TWOROOTS] */
    } else if (!strcmp(c, "wrongroot") || !strcmp(c, "named")) {
        if (!strcmp(c, "named"))
            MPI_Comm_set_name(ic, "pairs");
        MPI_Bcast(x, 1, MPI_INT, even ? root : 1, ic); /* [WRONGROOT] */
    } else if (!strcmp(c, "inplace")) {
        MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_SUM, ic); /* [INPLACE] */
    } else if (!strcmp(c, "count")) {
        MPI_Gather(x, even ? 0 : 1, MPI_INT, y, 2, MPI_INT, root, ic); /* [COUNT] */
    } else if (!strcmp(c, "kinds")) {
        if (even)
            MPI_Bcast(x, 1, MPI_INT, root, ic); /* [KINDS] */
        else
            MPI_Reduce(x, y, 1, MPI_INT, MPI_SUM, 0, ic); /* [KINDS-ODD] */
    } else if (!strcmp(c, "bystander")) {
        MPI_Request r;
        MPI_Igather(x, 1, MPI_INT, y, 1, MPI_INT, root, ic, &r);
        if (root == MPI_PROC_NULL)
            x[0] = -1;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (root == MPI_ROOT)
            printf("rank %d: gathered %d %d\n", wrank, y[0], y[1]);
    } else if (!strcmp(c, "missing")) {
        if (even)
            MPI_Barrier(ic); /* [MISSING] */
    }
    printf("rank %d: done\n", wrank);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
