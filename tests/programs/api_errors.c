/*
 * api_errors.c - one usage error of attributes, error handlers or info
 * objects per case (argv[1]); run with 2 ranks.
 *
 * ordex must report, for each case, one [mpi_error] at the line marked with
 * the case's name in capitals (e.g. [FREEDKEY]), exit status 1:
 *   freedkey     MPI_Comm_set_attr with a keyval freed before
 *   wrongkind    MPI_Comm_set_attr with a datatype keyval
 *   predefined   MPI_Comm_set_attr of MPI_TAG_UB
 *   winkey       MPI_Comm_get_attr with MPI_WIN_BASE
 *   baddelete    MPI_Comm_free whose delete callback returns MPI_ERR_OTHER
 *   badcopy      MPI_Comm_dup whose copy callback returns MPI_ERR_OTHER
 *   ehkind       MPI_Comm_set_errhandler with a window error handler
 *   ehfreed      MPI_Comm_set_errhandler with a handler freed before
 *   fatalcall    MPI_Comm_call_errhandler under MPI_ERRORS_ARE_FATAL
 *   errstring    MPI_Add_error_string for the predefined MPI_ERR_TAG
 *   emptykey     MPI_Info_set with the empty key
 *   nokey        MPI_Info_delete of a key that is not set
 *   infofreed    MPI_Info_get_nkeys on an info freed before
 *   infoenv      MPI_Info_free(MPI_INFO_ENV)
 *   nthkey       MPI_Info_get_nthkey past the last key
 *   badinfo      MPI_Comm_dup_with_info with a handle that is no info
 *   outsidegroup MPI_Comm_create_group with a group holding a rank outside the communicator
 *   datarep      MPI_Pack_external with the representation "native"
 *   conversion   MPI_Pack_external of a long that needs more than 32 bits
 *   subarray     MPI_Type_create_subarray reaching past the array
 *   darray       MPI_Type_create_darray with blocks that do not cover a dimension
 *   setelements  MPI_Status_set_elements with a negative count
 *   notopo       MPI_Neighbor_allgather on MPI_COMM_WORLD, which has no topology
 *   asymmetric   a graph where node 0 lists node 1 but not the other way: the
 *                neighbour allgather has nowhere to put node 0's data
 *   adjacent     MPI_Dist_graph_create_adjacent whose edge 0 -> 1 rank 1 does not list
 *   halfweights  MPI_Dist_graph_create_adjacent with weights for the sources only
 * and, without a finding (exit status 0):
 *   returncode   MPI_ERRORS_RETURN: MPI_Comm_free with a failing delete
 *                callback returns its code and leaves the communicator
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int bad_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
    return MPI_ERR_OTHER;
}

static int bad_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
    return MPI_ERR_OTHER;
}

static void handler(MPI_Win *win, int *code, ...) {}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *c = argc > 1 ? argv[1] : "";
    int key, other;
    MPI_Comm comm;
    MPI_Info info;
    MPI_Errhandler eh;
    if (!strcmp(c, "freedkey")) {
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
        other = key;
        MPI_Comm_free_keyval(&key);
        MPI_Comm_set_attr(MPI_COMM_WORLD, other, NULL); /* [FREEDKEY] */
    } else if (!strcmp(c, "wrongkind")) {
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL);
        MPI_Comm_set_attr(MPI_COMM_WORLD, key, NULL); /* [WRONGKIND] */
    } else if (!strcmp(c, "predefined")) {
        MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL); /* [PREDEFINED] */
    } else if (!strcmp(c, "winkey")) {
        void *v;
        int flag;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WIN_BASE, &v, &flag); /* [WINKEY] */
    } else if (!strcmp(c, "baddelete") || !strcmp(c, "returncode")) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, bad_delete, &key, NULL);
        MPI_Comm_set_attr(comm, key, NULL);
        if (!strcmp(c, "returncode")) {
            MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
            int rc = MPI_Comm_free(&comm);
            int size;
            MPI_Comm_size(comm, &size);
            printf("rank %d: MPI_Comm_free returned MPI_ERR_OTHER %d, comm of size %d\n", rank,
                   rc == MPI_ERR_OTHER, size);
        } else {
            MPI_Comm_free(&comm); /* [BADDELETE] */
        }
    } else if (!strcmp(c, "badcopy")) {
        MPI_Comm_create_keyval(bad_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
        MPI_Comm_set_attr(MPI_COMM_WORLD, key, NULL);
        MPI_Comm_dup(MPI_COMM_WORLD, &comm); /* [BADCOPY] */
    } else if (!strcmp(c, "ehkind")) {
        MPI_Win_create_errhandler(handler, &eh);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh); /* [EHKIND] */
    } else if (!strcmp(c, "ehfreed")) {
        MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)handler, &eh);
        MPI_Errhandler copy = eh;
        MPI_Errhandler_free(&eh);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, copy); /* [EHFREED] */
    } else if (!strcmp(c, "fatalcall") && rank == 1) {
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG); /* [FATALCALL] */
    } else if (!strcmp(c, "errstring")) {
        MPI_Add_error_string(MPI_ERR_TAG, "mine"); /* [ERRSTRING] */
    } else if (!strcmp(c, "emptykey")) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "", "value"); /* [EMPTYKEY] */
    } else if (!strcmp(c, "nokey")) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "a", "1");
        MPI_Info_delete(info, "b"); /* [NOKEY] */
    } else if (!strcmp(c, "infofreed")) {
        MPI_Info_create(&info);
        MPI_Info copy = info;
        MPI_Info_free(&info);
        int n;
        MPI_Info_get_nkeys(copy, &n); /* [INFOFREED] */
    } else if (!strcmp(c, "infoenv")) {
        info = MPI_INFO_ENV;
        MPI_Info_free(&info); /* [INFOENV] */
    } else if (!strcmp(c, "nthkey")) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "a", "1");
        char k[MPI_MAX_INFO_KEY + 1];
        MPI_Info_get_nthkey(info, 1, k); /* [NTHKEY] */
    } else if (!strcmp(c, "badinfo")) {
        MPI_Comm_dup_with_info(MPI_COMM_WORLD, (MPI_Info)0x12345, &comm); /* [BADINFO] */
    } else if (!strcmp(c, "outsidegroup")) {
        MPI_Group world;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &comm); /* each rank alone */
        MPI_Comm_create_group(comm, world, 0, &comm);   /* [OUTSIDEGROUP] */
    } else if (!strcmp(c, "datarep")) {
        char buf[8];
        MPI_Aint pos = 0;
        MPI_Pack_external("native", &rank, 1, MPI_INT, buf, 8, &pos); /* [DATAREP] */
    } else if (!strcmp(c, "conversion")) {
        long big = 1L << 40;
        char buf[8];
        MPI_Aint pos = 0;
        MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, 8, &pos); /* [CONVERSION] */
    } else if (!strcmp(c, "subarray")) {
        int sizes[1] = {4}, sub[1] = {3}, starts[1] = {2};
        MPI_Datatype t;
        MPI_Type_create_subarray(1, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t); /* [SUBARRAY] */
    } else if (!strcmp(c, "darray")) {
        int g = 10, d = MPI_DISTRIBUTE_BLOCK, da = 2, p = 2, o = MPI_ORDER_C;
        MPI_Datatype t;
        MPI_Type_create_darray(2, rank, 1, &g, &d, &da, &p, o, MPI_INT, &t); /* [DARRAY] */
    } else if (!strcmp(c, "notopo")) {
        int in = rank, out[2];
        MPI_Neighbor_allgather(&in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD); /* [NOTOPO] */
    } else if (!strcmp(c, "asymmetric")) {
        int index[2] = {1, 1}, edges[1] = {1}, in = rank, out[1];
        MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &comm);
        MPI_Neighbor_allgather(&in, 1, MPI_INT, out, 1, MPI_INT, comm); /* [ASYMMETRIC] */
    } else if (!strcmp(c, "adjacent")) {
        int one = 1, w = 1, deg = rank == 0, *e = MPI_WEIGHTS_EMPTY;
        MPI_Info ni = MPI_INFO_NULL;
        MPI_Comm wc = MPI_COMM_WORLD;
        MPI_Dist_graph_create_adjacent(wc, 0, e, e, deg, &one, &w, ni, 0, &comm); /* [ADJACENT] */
    } else if (!strcmp(c, "halfweights")) {
        int p = 1 - rank, w = 1, *u = MPI_UNWEIGHTED;
        MPI_Info ni = MPI_INFO_NULL;
        MPI_Comm wc = MPI_COMM_WORLD;
        MPI_Dist_graph_create_adjacent(wc, 1, &p, &w, 1, &p, u, ni, 0, &comm); /* [HALFWEIGHTS] */
    } else if (!strcmp(c, "setelements")) {
        MPI_Status st;
        MPI_Status_set_elements(&st, MPI_INT, -1); /* [SETELEMENTS] */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
