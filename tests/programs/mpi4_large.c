/*
 * mpi4_large.c - MPI 4.0's large-count `_c` functions (MPI_Count counts,
 * MPI_Aint displacements): point-to-point, collectives (v variants and a
 * neighbourhood one included), a persistent one, datatype constructors and
 * queries, MPI_Get_count_c, packing, one-sided communication, and a user
 * op of the large-count kind.  Every result is checked against what the
 * standard defines; a rank prints "rank R: WHAT ok" per check, or WRONG.
 *
 *   mpi4_large          all checks; no finding; output equals real MPICH's
 *   mpi4_large huge     rank 0 calls MPI_Send_c with a count of 2^31 (marked
 *                       HUGE): beyond what ordex handles, refused as
 *                       unsupported (exit status 2) naming the call, the
 *                       argument and the value, never truncated
 *   mpi4_large badtype  MPI_Send_c of an uncommitted type (marked BADTYPE):
 *                       the MPI error names MPI_Send_c
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void report(const char *what, int ok) {
    printf("rank %d: %s %s\n", rank, what, ok ? "ok" : "WRONG");
}

/* a op b = a: associative, not commutative; a reduction gives the value of
 * the lowest rank (MPI 3.1 section 5.9.5: in is the earlier operand). */
static void first(void *in, void *inout, MPI_Count *len, MPI_Datatype *type) {
    (void)type;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] = ((int *)in)[i];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "huge")) {
        static char big[16];
        if (rank == 0)
            MPI_Send_c(big, (MPI_Count)1 << 31, MPI_CHAR, 0, 0, MPI_COMM_WORLD); // [HUGE]
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "badtype")) {
        int v[4] = {0};
        MPI_Datatype t;
        MPI_Type_contiguous_c(2, MPI_INT, &t);
        MPI_Send_c(v, 1, t, right, 0, MPI_COMM_WORLD); // [BADTYPE]
        MPI_Finalize();
        return 0;
    }

    /* Point to point: Isend_c/Recv_c around the ring, the status counted
     * with MPI_Get_count_c and MPI_Get_elements_c. */
    {
        int s[3] = {rank, rank + 1, rank + 2}, r[3] = {-1, -1, -1};
        MPI_Request rq;
        MPI_Status st;
        MPI_Isend_c(s, 3, MPI_INT, right, 1, MPI_COMM_WORLD, &rq);
        MPI_Recv_c(r, 3, MPI_INT, left, 1, MPI_COMM_WORLD, &st);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Count n = -1, e = -1;
        MPI_Get_count_c(&st, MPI_INT, &n);
        MPI_Get_elements_c(&st, MPI_SHORT, &e);
        report("isend_c/recv_c", r[0] == left && r[2] == left + 2 && n == 3 &&
                                     e == (MPI_Count)(3 * sizeof(int) / sizeof(short)));
    }
    {
        double a = rank + 0.5, b = -1;
        MPI_Sendrecv_c(&a, 1, MPI_DOUBLE, right, 2, &b, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);
        report("sendrecv_c", b == left + 0.5);
    }
    {
        int x = 10 * rank, y = -1;
        MPI_Request rq;
        MPI_Isendrecv_c(&x, 1, MPI_INT, right, 3, &y, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        report("isendrecv_c", y == 10 * left);
    }

    /* Collectives. */
    {
        int v[2] = {rank == 0 ? 7 : -1, rank == 0 ? 8 : -1};
        MPI_Bcast_c(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
        int sum = -1;
        MPI_Allreduce_c(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        report("bcast_c/allreduce_c", v[0] == 7 && v[1] == 8 && sum == size * (size - 1) / 2);
    }
    {
        /* Gatherv_c: rank r sends r + 1 ints, valued r, packed at the root. */
        int s[16], g[256];
        MPI_Count counts[16];
        MPI_Aint displs[16];
        MPI_Aint at = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r + 1;
            displs[r] = at;
            at += r + 1;
        }
        for (int i = 0; i <= rank; i++)
            s[i] = rank;
        memset(g, -1, sizeof g);
        MPI_Gatherv_c(s, rank + 1, MPI_INT, g, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
        int ok = 1;
        if (rank == 0)
            for (int r = 0; r < size; r++)
                for (int i = 0; i <= r; i++)
                    ok &= g[displs[r] + i] == r;
        report("gatherv_c", ok);
    }
    {
        /* Alltoallv_c: one int to every rank, the receive blocks reversed. */
        int s[16], r[16];
        MPI_Count c[16];
        MPI_Aint sd[16], rd[16];
        for (int i = 0; i < size; i++) {
            s[i] = 100 * rank + i;
            r[i] = -1;
            c[i] = 1;
            sd[i] = i;
            rd[i] = size - 1 - i;
        }
        MPI_Alltoallv_c(s, c, sd, MPI_INT, r, c, rd, MPI_INT, MPI_COMM_WORLD);
        int ok = 1;
        for (int i = 0; i < size; i++)
            ok &= r[size - 1 - i] == 100 * i + rank;
        report("alltoallv_c", ok);
    }
    {
        /* Neighbor_alltoallv_c on a periodic ring of at least 3 ranks. */
        int dims[1] = {size}, periods[1] = {1};
        MPI_Comm ring;
        MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
        int s[2] = {10 * rank, 10 * rank + 1}, r[2] = {-1, -1};
        MPI_Count c[2] = {1, 1};
        MPI_Aint d[2] = {0, 1};
        MPI_Neighbor_alltoallv_c(s, c, d, MPI_INT, r, c, d, MPI_INT, ring);
        report("neighbor_alltoallv_c", size < 3 || (r[0] == 10 * left + 1 && r[1] == 10 * right));
        MPI_Comm_free(&ring);
    }
    {
        /* A persistent one, started twice. */
        int v = -1, want = 0;
        MPI_Request rq;
        MPI_Reduce_init_c(&rank, &v, 1, MPI_INT, MPI_MAX, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &rq);
        for (int k = 0; k < 2; k++) {
            MPI_Start(&rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&rq);
        want = rank == size - 1 ? size - 1 : -1;
        report("reduce_init_c", v == want);
    }

    /* Datatypes. */
    {
        MPI_Datatype vec, st;
        MPI_Type_vector_c(3, 2, 4, MPI_INT, &vec); /* ints 0,1, 4,5, 8,9 */
        MPI_Type_commit(&vec);
        MPI_Count sz = -1, lb = -1, ext = -1, tlb = -1, text = -1;
        MPI_Type_size_c(vec, &sz);
        MPI_Type_get_extent_c(vec, &lb, &ext);
        MPI_Type_get_true_extent_c(vec, &tlb, &text);
        int ok = sz == 6 * (MPI_Count)sizeof(int) && lb == 0 &&
                 ext == 10 * (MPI_Count)sizeof(int) && tlb == 0 && text == ext;
        MPI_Count blens[2] = {1, 2};
        MPI_Count disps[2] = {0, 2 * (MPI_Count)sizeof(double)};
        MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Type_create_struct_c(2, blens, disps, types, &st);
        MPI_Type_commit(&st);
        MPI_Type_size_c(st, &sz);
        MPI_Type_get_extent_c(st, &lb, &ext);
        ok &= sz == (MPI_Count)(sizeof(int) + 2 * sizeof(double)) && lb == 0 &&
              ext == 4 * (MPI_Count)sizeof(double);
        /* The vector around the ring: every receiver gets the six ints. */
        int a[10], b[10];
        for (int i = 0; i < 10; i++) {
            a[i] = 100 * rank + i;
            b[i] = -1;
        }
        MPI_Sendrecv_c(a, 1, vec, right, 4, b, 1, vec, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 10; i++)
            ok &= b[i] == ((i % 4) < 2 ? 100 * left + i : -1);
        /* Pack_c / Unpack_c of the vector: the six ints in order. */
        char packed[256];
        MPI_Count pos = 0, psize = -1;
        MPI_Pack_size_c(1, vec, MPI_COMM_WORLD, &psize);
        MPI_Pack_c(a, 1, vec, packed, sizeof packed, &pos, MPI_COMM_WORLD);
        ok &= pos == 6 * (MPI_Count)sizeof(int) && psize >= pos;
        int flat[6];
        MPI_Count upos = 0;
        MPI_Unpack_c(packed, pos, &upos, flat, 6, MPI_INT, MPI_COMM_WORLD);
        ok &= upos == pos && flat[0] == 100 * rank && flat[2] == 100 * rank + 4 &&
              flat[5] == 100 * rank + 9;
        MPI_Type_free(&vec);
        MPI_Type_free(&st);
        report("types_c/pack_c", ok);
    }

    /* One-sided: Put_c into the right neighbour's window, Get_c back. */
    {
        int win_buf[4] = {-1, -1, -1, -1}, got = -1;
        MPI_Win win;
        MPI_Win_create_c(win_buf, sizeof win_buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_fence(0, win);
        int mine = 1000 + rank;
        MPI_Put_c(&mine, 1, MPI_INT, right, 2, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
        MPI_Get_c(&got, 1, MPI_INT, left, 2, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
        report("put_c/get_c", win_buf[2] == 1000 + left && got == 1000 + (left + size - 1) % size);
        MPI_Win_free(&win);
    }

    /* A user op of the large-count kind, locally and in a reduction. */
    {
        MPI_Op op;
        MPI_Op_create_c(first, 0, &op);
        int in[2] = {1, 2}, io[2] = {10, 20};
        MPI_Reduce_local_c(in, io, 2, MPI_INT, op);
        int ok = io[0] == 1 && io[1] == 2;
        int v = -1, mine = rank + 5;
        MPI_Reduce_c(&mine, &v, 1, MPI_INT, op, size - 1, MPI_COMM_WORLD);
        if (rank == size - 1)
            ok &= v == 5;
        MPI_Op_free(&op);
        report("op_create_c", ok);
    }
    MPI_Finalize();
    return 0;
}
