/*
 * free_pending.c - datatypes and user ops freed while nonblocking operations
 * that use them are pending.  MPI lets the operations complete (MPI 3.1
 * section 4.1.9: "any communication that is currently using this datatype
 * will complete normally"; section 5.9.5 for MPI_Op_free): no error.
 *
 *   free_pending          MPI_Igather and MPI_Ibcast with a derived type freed
 *                         before MPI_Wait, MPI_Iallreduce and MPI_Iscan with a
 *                         user op freed before MPI_Wait, MPI_Irecv with a
 *                         freed derived type; then new types and ops are made
 *                         and used while the old are pending.  Every rank
 *                         prints what it got (stdout equals real MPICH's).
 *   free_pending mismatch rank 1 gathers two elements where the root expects
 *                         one: the truncation error names MPI_Igather (FAULT),
 *                         the call the program made.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* Element-wise maximum of the first halves, sum of the second halves: not
 * a predefined op, and not commutative as declared. */
static void maxsum(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = i % 2 == 0 ? (a[i] > b[i] ? a[i] : b[i]) : a[i] + b[i];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mismatch = argc > 1 && strcmp(argv[1], "mismatch") == 0;

    /* A pair of ints with a gap: every other int of a buffer. */
    MPI_Datatype pair;
    MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
    MPI_Type_commit(&pair);

    int send[4] = {10 * rank, -1, 10 * rank + 1, -1};
    int gathered[64];
    for (int i = 0; i < 64; i++)
        gathered[i] = -1;
    MPI_Request rq[3];
    int count = mismatch && rank == 1 ? 2 : 1;
    int cbuf[8] = {0};
    if (mismatch) /* a vector of 2 spans 3 ints; two of them, 7 */
        memcpy(cbuf, send, sizeof send);
    MPI_Igather(mismatch ? cbuf : send, count, pair, gathered, 2, MPI_INT, 0, // FAULT
                MPI_COMM_WORLD, &rq[0]);
    int bc[4] = {rank == 0 ? 7 : -1, -1, rank == 0 ? 8 : -1, -1};
    MPI_Ibcast(bc, 1, pair, 0, MPI_COMM_WORLD, &rq[1]);
    MPI_Type_free(&pair);

    MPI_Op op;
    MPI_Op_create(maxsum, 0, &op);
    int mine[2] = {rank, rank + 1}, all[2] = {-1, -1}, scanned[2] = {-1, -1};
    MPI_Iallreduce(mine, all, 2, MPI_INT, op, MPI_COMM_WORLD, &rq[2]);
    MPI_Request sq;
    MPI_Iscan(mine, scanned, 2, MPI_INT, op, MPI_COMM_WORLD, &sq);
    MPI_Op_free(&op);

    /* New objects while the old are pending: they must not be mixed up. */
    MPI_Datatype triple;
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Op op2;
    MPI_Op_create(maxsum, 1, &op2);
    int t[3] = {rank, rank, rank}, tsum[3];
    MPI_Allreduce(t, tsum, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int m2[2] = {rank, 1}, r2[2];
    MPI_Allreduce(m2, r2, 2, MPI_INT, op2, MPI_COMM_WORLD);

    for (int i = 0; i < 3; i++)
        MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);

    /* A receive posted with a type freed before the message comes. */
    MPI_Datatype twice;
    MPI_Type_contiguous(2, MPI_INT, &twice);
    MPI_Type_commit(&twice);
    int got[2] = {-1, -1};
    MPI_Request rr;
    int from = (rank + size - 1) % size, to = (rank + 1) % size;
    MPI_Irecv(got, 1, twice, from, 5, MPI_COMM_WORLD, &rr);
    MPI_Type_free(&twice);
    int out[2] = {100 + rank, 200 + rank};
    MPI_Send(out, 2, MPI_INT, to, 5, MPI_COMM_WORLD);
    MPI_Wait(&rr, MPI_STATUS_IGNORE);

    char line[512];
    int at = snprintf(line, sizeof line, "rank %d: bcast %d %d allreduce %d %d scan %d %d", rank,
                      bc[0], bc[2], all[0], all[1], scanned[0], scanned[1]);
    at += snprintf(line + at, sizeof line - (size_t)at, " triple %d %d op2 %d %d recv %d %d",
                   tsum[0], tsum[2], r2[0], r2[1], got[0], got[1]);
    if (rank == 0) {
        at += snprintf(line + at, sizeof line - (size_t)at, " gathered");
        for (int i = 0; i < 2 * size && i < 64; i++)
            at += snprintf(line + at, sizeof line - (size_t)at, " %d", gathered[i]);
    }
    /* One write: under mpiexec the ranks' outputs may interleave inside a
     * line otherwise. */
    at += snprintf(line + at, sizeof line - (size_t)at, "\n");
    fwrite(line, 1, (size_t)at, stdout);
    fflush(stdout);
    MPI_Type_free(&triple);
    MPI_Op_free(&op2);
    MPI_Finalize();
    return 0;
}
