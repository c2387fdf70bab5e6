/*
 * not_yet.c - MPI_Test and nonblocking probes that could succeed may say
 * "not yet" (MPI does not promise immediate progress).
 *
 * Needs 2 ranks.  Rank 1 sends one int to rank 0 (tag 1) before a barrier;
 * rank 0 posts its receive (or nothing, for the probes) before the barrier
 * and looks once after it, with the call named by argv[1]:
 *   test, testany, testsome, testall, iprobe, improbe
 * If the call says "not yet", rank 0 waits for a resend (tag 2) that never
 * comes: a deadlock at the RESEND line.
 *   ordex run -n 2: no error (the call succeeds), stdout "rank 0: got 7".
 *   ordex explore -n 2: [deadlock], rank 0 in MPI_Recv(source=1, tag=2) at
 *   RESEND; with --no-test-later: no error.
 *
 * argv[1] = loop: rank 0 waits with polling loops instead, which only end
 * when the call succeeds: `while (!flag) MPI_Iprobe(...)` for a first
 * message, and a loop that counts its MPI_Test calls (so no two iterations
 * are the same state) for a second one.  Exploration must end (the "not
 * yet" answers do not go on forever): no error, stdout "rank 0: got 7 8".
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *how = argc > 1 ? argv[1] : "test";
    if (size < 2) {
        MPI_Finalize();
        return 0;
    }
    if (strcmp(how, "loop") == 0) {
        if (rank == 1) {
            int a = 7, b = 8;
            MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
            MPI_Send(&b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        } else if (rank == 0) {
            int a = 0, b = 0, flag = 0;
            while (!flag)
                MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            MPI_Recv(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Request r;
            MPI_Irecv(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &r);
            long tries = 0;
            for (flag = 0; !flag; tries++)
                MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            printf("rank 0: got %d %d\n", a, b);
            fflush(stdout);
        }
        MPI_Finalize();
        return 0;
    }

    if (rank == 1) {
        int v = 7;
        MPI_Request s;
        MPI_Isend(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &s);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
        int v = 0, flag = 0, idx = -1, outcount = 0, indices[1];
        MPI_Status sts[1];
        MPI_Request r = MPI_REQUEST_NULL;
        MPI_Message m;
        int probe = strcmp(how, "iprobe") == 0 || strcmp(how, "improbe") == 0;
        if (!probe)
            MPI_Irecv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r);
        MPI_Barrier(MPI_COMM_WORLD);
        if (strcmp(how, "test") == 0) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        } else if (strcmp(how, "testany") == 0) {
            MPI_Testany(1, &r, &idx, &flag, MPI_STATUS_IGNORE);
        } else if (strcmp(how, "testsome") == 0) {
            MPI_Testsome(1, &r, &outcount, indices, sts);
            flag = outcount > 0;
        } else if (strcmp(how, "testall") == 0) {
            MPI_Testall(1, &r, &flag, sts);
        } else if (strcmp(how, "iprobe") == 0) {
            MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (flag)
                MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Improbe(1, 1, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
            if (flag)
                MPI_Mrecv(&v, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
        }
        if (!flag) /* BUG: "not there yet" taken as "lost": wait for a resend */
            MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* RESEND */
        printf("rank 0: got %d\n", v);
        fflush(stdout);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
