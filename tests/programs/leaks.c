/*
 * leaks.c - objects made and never freed before MPI_Finalize.
 *
 *   leaks        every rank makes a communicator with MPI_Comm_dup (line
 *                [DUP]), one with MPI_Comm_split (line [SPLIT], freed again
 *                by the odd ranks), a group (MPI_Comm_group, [GROUP]), a
 *                datatype ([TYPE]), a user op ([OP]), a persistent request
 *                ([PERSIST]), a window ([WIN]) and attaches a buffer
 *                ([ATTACH]); rank 0 also makes two groups in a loop
 *                ([INCL]).  None is freed.  ordex: one leak per call site,
 *                located there, naming the ranks (warnings by default;
 *                --leaks=error makes them errors, --leaks=off drops them).
 *   leaks free   the same objects, all freed: no finding.
 * Both print what they computed (stdout equals real MPICH's).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void maxop(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] > b[i] ? a[i] : b[i];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int frees = argc > 1 && strcmp(argv[1], "free") == 0;

    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);                    /* [DUP] */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half); /* [SPLIT] */
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world); /* [GROUP] */
    MPI_Group some[2];
    int n = 0;
    for (int i = 0; rank == 0 && i < 2; i++) {
        int r = i % size;
        MPI_Group_incl(world, 1, &r, &some[n++]); /* [INCL] */
    }
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair); /* [TYPE] */
    MPI_Type_commit(&pair);
    MPI_Op op;
    MPI_Op_create(maxop, 1, &op); /* [OP] */
    int got = -1, token = rank;
    MPI_Request persist;
    MPI_Recv_init(&got, 1, MPI_INT, (rank + size - 1) % size, 7, dup, &persist); /* [PERSIST] */
    int winmem = 0;
    MPI_Win win;
    MPI_Win_create(&winmem, sizeof winmem, sizeof winmem, MPI_INFO_NULL, // [WIN]
                   MPI_COMM_WORLD, &win);
    static char bsend[1024];
    MPI_Buffer_attach(bsend, sizeof bsend); /* [ATTACH] */

    int mine[2] = {rank, size - rank}, max[2], first[2] = {rank, rank};
    MPI_Allreduce(mine, max, 2, MPI_INT, op, dup);
    MPI_Bcast(first, 1, pair, size - 1, dup);
    int k, hn;
    MPI_Comm_rank(half, &k);
    MPI_Comm_size(half, &hn);
    MPI_Start(&persist);
    MPI_Bsend(&token, 1, MPI_INT, (rank + 1) % size, 7, dup);
    MPI_Wait(&persist, MPI_STATUS_IGNORE);
    MPI_Win_fence(0, win);
    /* One write: under mpiexec the ranks' outputs may interleave inside a
     * line otherwise. */
    char line[160];
    int len =
        snprintf(line, sizeof line, "rank %d: max %d %d first %d %d half rank %d of %d got %d\n",
                 rank, max[0], max[1], first[0], first[1], k, hn, got);
    fwrite(line, 1, (size_t)len, stdout);
    fflush(stdout);

    if (frees || rank % 2 == 1)
        MPI_Comm_free(&half);
    if (frees) {
        MPI_Comm_free(&dup);
        MPI_Group_free(&world);
        for (int i = 0; i < n; i++)
            MPI_Group_free(&some[i]);
        MPI_Type_free(&pair);
        MPI_Op_free(&op);
        MPI_Request_free(&persist);
        MPI_Win_free(&win);
        void *buf;
        int bsize;
        MPI_Buffer_detach(&buf, &bsize);
    }
    MPI_Finalize();
    return 0;
}
