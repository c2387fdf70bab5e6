/*
 * intercomm.c - intercommunicators (MPI 3.1 section 6.6), checked against
 * what the standard says.
 *
 * Run with 4 ranks: the even world ranks and the odd ones form the two
 * groups.  Every rank prints its own lines; the output is MPICH's
 * (tests/e2e/expected/intercomm.n4.out).  ordex must report nothing:
 *   - MPI_Intercomm_create over MPI_COMM_WORLD (leaders world 0 and 1):
 *     MPI_Comm_test_inter, the local size and rank, MPI_Comm_remote_size,
 *     the remote group's world ranks;
 *   - point-to-point over it: a rank and peers are ranks of the other
 *     group; MPI_SOURCE is the sender's rank in its group; MPI_ANY_SOURCE;
 *     MPI_Sendrecv;
 *   - MPI_Comm_dup of the intercommunicator (congruent, still inter, keeps
 *     an attribute through its copy callback) and a message on it;
 *   - MPI_Intercomm_merge with high = the odd group: the even group first.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int color = wrank % 2;
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? 0 : 1, 42, &ic);

    int inter, size, rank, rsize;
    MPI_Comm_test_inter(ic, &inter);
    MPI_Comm_size(ic, &size);
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Group remote, world;
    MPI_Comm_remote_group(ic, &remote);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int rr[2] = {0, 1}, wr[2];
    MPI_Group_translate_ranks(remote, 2, rr, world, wr);
    printf("rank %d: inter %d size %d rank %d remote size %d remote group world %d %d\n", wrank,
           inter, size, rank, rsize, wr[0], wr[1]);

    /* Local rank r of one group sends to local rank r of the other. */
    int got = -1;
    MPI_Status st;
    if (color == 0) {
        MPI_Send(&wrank, 1, MPI_INT, rank, 1, ic);
        MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 2, ic, &st);
    } else {
        MPI_Recv(&got, 1, MPI_INT, rank, 1, ic, &st);
        MPI_Send(&wrank, 1, MPI_INT, (rank + 1) % rsize, 2, ic);
    }
    printf("rank %d: got %d from remote rank %d\n", wrank, got, st.MPI_SOURCE);
    int mine = 100 + wrank, theirs = -1;
    MPI_Sendrecv(&mine, 1, MPI_INT, rank, 3, &theirs, 1, MPI_INT, rank, 3, ic, &st);
    printf("rank %d: sendrecv got %d\n", wrank, theirs);

    int key;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(ic, key, (void *)(long)(wrank * 10));
    MPI_Comm dup;
    MPI_Comm_dup(ic, &dup);
    int cmp, dinter, dr;
    void *v;
    int flag;
    MPI_Comm_compare(ic, dup, &cmp);
    MPI_Comm_test_inter(dup, &dinter);
    MPI_Comm_remote_size(dup, &dr);
    MPI_Comm_get_attr(dup, key, &v, &flag);
    printf("rank %d: dup congruent %d inter %d remote size %d attribute %d %ld\n", wrank,
           cmp == MPI_CONGRUENT, dinter, dr, flag, (long)v);
    got = -1;
    if (color == 1)
        MPI_Send(&wrank, 1, MPI_INT, rank, 4, dup);
    else
        MPI_Recv(&got, 1, MPI_INT, rank, 4, dup, MPI_STATUS_IGNORE);
    if (color == 0)
        printf("rank %d: on the dup got %d\n", wrank, got);

    MPI_Comm merged;
    MPI_Intercomm_merge(ic, color, &merged);
    int msize, mrank;
    MPI_Comm_size(merged, &msize);
    MPI_Comm_rank(merged, &mrank);
    int sum = 0;
    MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, merged);
    printf("rank %d: merged size %d rank %d sum %d\n", wrank, msize, mrank, sum);

    MPI_Group_free(&remote);
    MPI_Group_free(&world);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    MPI_Comm_free_keyval(&key);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
