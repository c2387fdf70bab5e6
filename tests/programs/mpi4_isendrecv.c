/*
 * mpi4_isendrecv.c - MPI 4.0's MPI_Isendrecv and MPI_Isendrecv_replace
 * (section 3.10), and MPI_Comm_idup_with_info.  Each rank sends to its
 * right neighbour on a ring and receives from its left one: the received
 * values and the status (MPI_SOURCE, MPI_TAG, the count) must be what the
 * standard says; a rank prints "rank R: WHAT ok" per check, or the first
 * wrong value.
 *
 *   mpi4_isendrecv           all checks; no finding
 *   mpi4_isendrecv mpich     the data only, and Isendrecv_replace on 3 MPI_INTs:
 *                            what MPICH 4.0.2 gets right (its statuses of
 *                            MPI_Isendrecv are empty, one with
 *                            MPI_PROC_NULL crashes, and Isendrecv_replace of a
 *                            derived type corrupts the buffer and the type's
 *                            reference count); output equals real MPICH's
 *   mpi4_isendrecv alias     MPI_Isendrecv with overlapping send and receive
 *                            buffers (A:alias): an MPI error (they must be
 *                            disjoint)
 *   mpi4_isendrecv unwaited  an MPI_Isendrecv never completed (U:unwaited):
 *                            a pending request at MPI_Finalize
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void report(const char *what, int ok) {
    if (ok)
        printf("rank %d: %s ok\n", rank, what);
    else
        printf("rank %d: %s WRONG\n", rank, what);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    const char *mode = argc > 1 ? argv[1] : "";
    int status_too = strcmp(mode, "mpich") != 0;
    if (!strcmp(mode, "alias")) {
        int buf[4] = {0};
        MPI_Request rq;
        MPI_Isendrecv(buf, 3, MPI_INT, right, 0, buf + 2, 2, MPI_INT, left, 0, // [A:alias]
                      MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else if (!strcmp(mode, "unwaited")) {
        int s = rank, r = -1;
        MPI_Request rq;
        MPI_Isendrecv(&s, 1, MPI_INT, right, 0, &r, 1, MPI_INT, left, 0, // [U:unwaited]
                      MPI_COMM_WORLD, &rq);
    } else {
        /* Two ints out, received as two ints: the status counts them. */
        int s[2] = {rank, 10 * rank}, r[2] = {-1, -1};
        MPI_Request rq;
        MPI_Status st;
        MPI_Isendrecv(s, 2, MPI_INT, right, 5, r, 2, MPI_INT, left, 5, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, &st);
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        report("isendrecv", r[0] == left && r[1] == 10 * left);
        if (status_too)
            report("isendrecv status", st.MPI_SOURCE == left && st.MPI_TAG == 5 && count == 2);

        /* Replace, with a strided type: every other int travels. */
        int v[6];
        for (int i = 0; i < 6; i++)
            v[i] = 100 * rank + i;
        MPI_Datatype every2 = MPI_INT;
        if (status_too) {
            MPI_Type_vector(3, 1, 2, MPI_INT, &every2);
            MPI_Type_commit(&every2);
        }
        /* mpich: the first three ints */
        MPI_Isendrecv_replace(v, status_too ? 1 : 3, every2, right, 6, left, 6, MPI_COMM_WORLD,
                              &rq);
        int flag = 0;
        while (!flag)
            MPI_Test(&rq, &flag, &st);
        if (status_too)
            MPI_Type_free(&every2);
        int ok = !status_too || (st.MPI_SOURCE == left && st.MPI_TAG == 6);
        for (int i = 0; i < 6; i++) {
            int moved = status_too ? i % 2 == 0 : i < 3;
            ok &= v[i] == (moved ? 100 * left + i : 100 * rank + i);
        }
        report("isendrecv_replace", ok);

        /* MPI_PROC_NULL on both sides: completes at once, the receive's
         * status is that of MPI_PROC_NULL (source MPI_PROC_NULL, tag
         * MPI_ANY_TAG, count 0), the buffer untouched. */
        if (status_too) {
            int x = 42, y = 43;
            MPI_Isendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 1, &y, 1, MPI_INT, MPI_PROC_NULL, 1,
                          MPI_COMM_WORLD, &rq);
            MPI_Wait(&rq, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            report("isendrecv proc_null", y == 43 && st.MPI_SOURCE == MPI_PROC_NULL &&
                                              st.MPI_TAG == MPI_ANY_TAG && count == 0);
        }

        /* Synchronous-mode partners: each rank's Isendrecv is matched by its
         * neighbours' in a Waitall with a second one in the other direction. */
        int a = rank, b = -1, c = rank, d = -1;
        MPI_Request two[2];
        MPI_Isendrecv(&a, 1, MPI_INT, right, 7, &b, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &two[0]);
        MPI_Isendrecv(&c, 1, MPI_INT, left, 8, &d, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &two[1]);
        MPI_Status sts[2];
        MPI_Waitall(2, two, sts);
        report("isendrecv both ways", b == left && d == right);
        if (status_too)
            report("isendrecv both ways status",
                   sts[0].MPI_SOURCE == left && sts[1].MPI_SOURCE == right);

        /* MPI_Comm_idup_with_info: a communicator of its own, usable at once
         * after the wait, with the hint the info set. */
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
        MPI_Comm dup;
        MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &dup, &rq);
        MPI_Info_free(&info);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        int sum = 0, result = 0;
        MPI_Comm_compare(MPI_COMM_WORLD, dup, &result);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
        report("comm_idup_with_info", result == MPI_CONGRUENT && sum == size * (size - 1) / 2);
        MPI_Comm_free(&dup);
    }
    MPI_Finalize();
    return 0;
}
