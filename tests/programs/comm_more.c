/*
 * comm_more.c - MPI_Comm_idup, MPI_Comm_idup_with_info and
 * MPI_Comm_create_group, checked against what the standard says.
 *
 * Run with 4 ranks; every rank prints its own lines, the output is MPICH's
 * (tests/e2e/expected/comm_more.n4.out).  ordex must report nothing:
 *   - MPI_Comm_idup: the copy callback runs, the new communicator has the
 *     copied attribute and the same size and rank once MPI_Wait returns,
 *     and works for a collective; two idups pending at once;
 *   - MPI_Comm_idup_with_info: the new communicator has the hint given;
 *   - MPI_Comm_create_group: ranks 3, 1 (in that order) make a communicator
 *     among themselves while 0 and 2 do not take part, then ranks 0 and 2
 *     one of their own with the same tag; rank order follows the group;
 *     an allreduce on each shows its members; a rank outside the group
 *     gets MPI_COMM_NULL.
 */
#include <mpi.h>
#include <stdio.h>

static int rank;

static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
    printf("rank %d: copy callback value %ld\n", rank, (long)in);
    *(void **)out = (void *)((long)in * 2);
    *flag = 1;
    return MPI_SUCCESS;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int key;
    MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, (void *)(long)(10 + rank));

    MPI_Comm a, b;
    MPI_Request req[2];
    MPI_Comm_idup(MPI_COMM_WORLD, &a, &req[0]);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_source", "true");
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &b, &req[1]);
    MPI_Info_free(&info);
    MPI_Status st[2];
    MPI_Waitall(2, req, st);
    void *v;
    int flag, size, r;
    MPI_Comm_get_attr(a, key, &v, &flag);
    MPI_Comm_size(a, &size);
    MPI_Comm_rank(a, &r);
    printf("rank %d: idup size %d rank %d attribute %d %ld\n", rank, size, r, flag, (long)v);
    int sum = 0, one = rank + 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, a);
    printf("rank %d: allreduce on the idup %d\n", rank, sum);
    MPI_Info used;
    char value[16];
    MPI_Comm_get_info(b, &used);
    MPI_Info_get(used, "mpi_assert_no_any_source", 15, value, &flag);
    printf("rank %d: idup_with_info hint %d %s\n", rank, flag, flag ? value : "-");
    MPI_Info_free(&used);

    MPI_Group world, odd, even;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int odd_ranks[2] = {3, 1}, even_ranks[2] = {0, 2};
    MPI_Group_incl(world, 2, odd_ranks, &odd);
    MPI_Group_incl(world, 2, even_ranks, &even);
    MPI_Comm g = MPI_COMM_NULL;
    if (rank % 2 == 1)
        MPI_Comm_create_group(MPI_COMM_WORLD, odd, 7, &g);
    else
        MPI_Comm_create_group(MPI_COMM_WORLD, even, 7, &g);
    MPI_Comm_size(g, &size);
    MPI_Comm_rank(g, &r);
    int members[4] = {-1, -1, -1, -1};
    MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, g);
    printf("rank %d: create_group size %d rank %d members %d %d\n", rank, size, r, members[0],
           members[1]);
    MPI_Comm none;
    MPI_Comm_create_group(MPI_COMM_WORLD, rank % 2 ? even : odd, 8, &none);
    printf("rank %d: outside the group gets MPI_COMM_NULL %d\n", rank, none == MPI_COMM_NULL);

    MPI_Group_free(&world);
    MPI_Group_free(&odd);
    MPI_Group_free(&even);
    MPI_Comm_free(&g);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    MPI_Comm_free_keyval(&key);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
