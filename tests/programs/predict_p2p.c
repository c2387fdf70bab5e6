/*
 * predict_p2p.c - point-to-point timings that `ordex predict` must get
 * exactly (tests/e2e/test_predict.c, with --ignore-compute and the platform
 * tests/programs/predict.ini: 10 us latency, 1 GB/s, 64 KiB eager limit,
 * 20 us rendezvous handshake, one rank per node).  argv[1] picks the case:
 *
 *   pingpong    10 round trips of 1000 B between ranks 0 and 1:
 *               one way is 10 us + 1 us, so rank 0 prints "pingpong 220.000 us"
 *   share       ranks 0 and 1 (one node, 2 cores) each send 1 MB eagerly to
 *               ranks 2 and 3 (another node): the two transfers share the
 *               node's link, so each takes 10 us + 2 ms: "recv at 2010.000 us"
 *   alone       only rank 0 sends: "recv at 1010.000 us"
 *   rendezvous  1 MB from 0 to 1 above the eager limit: latency + handshake +
 *               1 ms, both sides complete then: "send done at 1030.000 us",
 *               "recv done at 1030.000 us"
 *   cpu         every rank computes 1 s (ordex_compute): "compute done at
 *               X s" where X is 2 with two ranks on one core, 1 with a core each
 *   wildcard    rank 1 computes 1 ms then sends, rank 2 sends at once; rank 0's
 *               first MPI_ANY_SOURCE receive gets rank 2's: "first from 2"
 *   late        rank 0 computes 1 ms, then sends 1000 B; rank 1 waits for it
 *               (blocked 1 ms, then 11 us of transfer)
 *   overhead    one message of 1000 B with 1 us send and 2 us receive overhead
 *               (--set): "oneway 14.000 us" (1 + 10 + 1 + 2)
 *   poll        ranks 0 and 1 on one core (--set): rank 0 computes 1 s, sends
 *               an int to rank 1 and waits for it back.  Rank 1 polls in its
 *               receive meanwhile (busy_wait, the default), so rank 0 gets half
 *               the core: it sends at 2 s, the int arrives at 2 s + 10.004 us.
 *               Both ranks poll then, 2 on 1 core: rank 1 returns a slice wait
 *               of (2/1 - 1) x 4 ms / 2 = 2 ms later, "recv at 2002010.004 us".
 *               Its reply arrives 10.004 us after; rank 1 has ended, so rank 0
 *               has the core to itself: "reply at 2002020.008 us".  With
 *               busy_wait = false: "recv at 1000010.004 us", "reply at
 *               1000020.008 us".  Placed (--placements K): the core's 4 ms
 *               turns alternate between the two ranks from time 0, and the
 *               int arrives in turn 500 (2 s / 4 ms).  If that is rank 1's
 *               turn: "recv at 2000010.004 us", the reply 10.004 us later,
 *               a predicted time of 2.000020008 s; if not, rank 1 goes on
 *               when its turn 501 starts, "recv at 2004000.000 us", and the
 *               reply comes 10.004 us after that (rank 0 is alone then):
 *               2.004010004 s
 *   pull        as poll, but rank 0 sends 100,000 B, above the eager limit,
 *               then an int.  Its request to send is there at 2 s; rank 1,
 *               polling in its receive since the start, pulls the data when it
 *               has the core again, a slice wait later (2 ms), and the
 *               intra-node rendezvous takes 3 x 10 us + 100 us: "recv at
 *               2002130.000 us" (rank 1 got its core for the pull and keeps
 *               it).  Rank 0 waited in MPI_Send and notices its end a slice
 *               wait later, rank 1 polling for the int: "send done at
 *               2004130.000 us"
 *   token       an int passed around all ranks 10 times (0 -> 1 -> ... -> 0),
 *               4 ranks on one node of 2 cores (--set).  Every rank waits in
 *               MPI_Recv and polls, so a rank whose int has arrived (10.004
 *               us after the send) goes on (4/2 - 1) x 4 ms / 2 = 2 ms later.
 *               A rank ends after its last send, and fewer ranks then share
 *               the cores: of the 40 hops, the first 37 wait 2 ms, the 38th
 *               (rank 1 has ended: 3 ranks) (3/2 - 1) x 4 ms / 2 = 1 ms, the
 *               last two nothing (2 ranks, then 1).  "token back at
 *               75400.160 us" (40 x 10.004 us + 37 x 2 ms + 1 ms); those
 *               75 ms are each the receiver's wait for a core (core_wait_s)
 *   progress    rank 0 sends 1 MB (rendezvous) to rank 1, which posted
 *               MPI_Irecv, computes 2 ms and calls MPI_Wtime ("computed at
 *               2000.000 us"), then MPI_Wait.  Without asynchronous progress
 *               (the default) the data moves only once rank 1 is inside a
 *               call that progresses (MPI_Wtime does not): from 2 ms, 1030 us
 *               as in rendezvous, so "recv done at 3030.000 us" and "send
 *               done at 3030.000 us".  With network.async_progress=true it
 *               moves at once: "send done at 1030.000 us", "recv done at
 *               2000.000 us"
 *   call        as progress, but after 1 ms rank 1 sends rank 0 an int with
 *               MPI_Isend, a call that progresses: the data moves from there,
 *               "send done at 2030.000 us"; the MPI_Wait 2 ms later finds it
 *               in: "recv done at 3000.000 us"
 *   build       how the program was compiled: "optimised build" under
 *               `ordex predict` (a .c file is built with -O2 there, since its
 *               computation is measured), "unoptimised build" under `ordex run`;
 *               then "loads and stores instrumented" under `ordex run`, "loads
 *               and stores not instrumented" under `ordex predict` (the
 *               instrumentation would slow the computation it measures)
 */
#include <mpi.h>
#include <ordex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char buf[1000000];

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "pingpong";
    double t0 = MPI_Wtime();
    if (strcmp(mode, "pingpong") == 0) {
        for (int i = 0; i < 10; i++) {
            if (rank == 0) {
                MPI_Send(buf, 1000, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, 1000, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, 1000, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 1000, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        if (rank == 0)
            printf("pingpong %.3f us\n", (MPI_Wtime() - t0) * 1e6);
    } else if (strcmp(mode, "share") == 0 || strcmp(mode, "alone") == 0) {
        bool both = strcmp(mode, "share") == 0;
        if (rank == 0 || (rank == 1 && both))
            MPI_Send(buf, 1000000, MPI_BYTE, rank + 2, 0, MPI_COMM_WORLD);
        if (rank == 2 || (rank == 3 && both)) {
            MPI_Recv(buf, 1000000, MPI_BYTE, rank - 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("recv at %.3f us\n", MPI_Wtime() * 1e6);
        }
    } else if (strcmp(mode, "rendezvous") == 0) {
        if (rank == 0) {
            MPI_Send(buf, 1000000, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            printf("send done at %.3f us\n", MPI_Wtime() * 1e6);
        } else if (rank == 1) {
            MPI_Recv(buf, 1000000, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("recv done at %.3f us\n", MPI_Wtime() * 1e6);
        }
    } else if (strcmp(mode, "cpu") == 0) {
        ordex_compute(1.0);
        printf("compute done at %.6f s\n", MPI_Wtime());
    } else if (strcmp(mode, "wildcard") == 0) {
        if (rank == 1)
            ordex_compute(1e-3);
        if (rank == 1 || rank == 2)
            MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            int from;
            MPI_Status st;
            MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            printf("first from %d\n", st.MPI_SOURCE);
            MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
            printf("then from %d\n", st.MPI_SOURCE);
        }
    } else if (strcmp(mode, "late") == 0) {
        if (rank == 0) {
            ordex_compute(1e-3);
            MPI_Send(buf, 1000, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(buf, 1000, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else if (strcmp(mode, "build") == 0) {
#ifdef __OPTIMIZE__
        if (rank == 0)
            printf("optimised build\n");
#else
        if (rank == 0)
            printf("unoptimised build\n");
#endif
#ifdef __SANITIZE_THREAD__
        if (rank == 0)
            printf("loads and stores instrumented\n");
#else
        if (rank == 0)
            printf("loads and stores not instrumented\n");
#endif
    } else if (strcmp(mode, "poll") == 0) {
        int v = 7;
        if (rank == 0) {
            ordex_compute(1.0);
            MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("reply at %.3f us\n", MPI_Wtime() * 1e6);
        } else if (rank == 1) {
            MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("recv at %.3f us\n", MPI_Wtime() * 1e6);
            MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
    } else if (strcmp(mode, "token") == 0) {
        int v = 7;
        for (int round = 0; round < 10; round++) {
            if (rank == 0) {
                MPI_Send(&v, 1, MPI_INT, 1 % size, 0, MPI_COMM_WORLD);
                MPI_Recv(&v, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&v, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&v, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
            }
        }
        if (rank == 0)
            printf("token back at %.3f us\n", MPI_Wtime() * 1e6);
    } else if (strcmp(mode, "pull") == 0) {
        int v = 7;
        if (rank == 0) {
            ordex_compute(1.0);
            MPI_Send(buf, 100000, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            printf("send done at %.3f us\n", MPI_Wtime() * 1e6);
            MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(buf, 100000, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("recv at %.3f us\n", MPI_Wtime() * 1e6);
            MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else if (strcmp(mode, "progress") == 0 || strcmp(mode, "call") == 0) {
        bool call = strcmp(mode, "call") == 0;
        int v = 7;
        if (rank == 0) {
            MPI_Send(buf, 1000000, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            printf("send done at %.3f us\n", MPI_Wtime() * 1e6);
            if (call)
                MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
            MPI_Irecv(buf, 1000000, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &req[0]);
            if (call) {
                ordex_compute(1e-3);
                MPI_Isend(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &req[1]);
            }
            ordex_compute(2e-3);
            printf("computed at %.3f us\n", MPI_Wtime() * 1e6);
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
            printf("recv done at %.3f us\n", MPI_Wtime() * 1e6);
        }
    } else if (strcmp(mode, "overhead") == 0) {
        if (rank == 0)
            MPI_Send(buf, 1000, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        else if (rank == 1) {
            MPI_Recv(buf, 1000, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("oneway %.3f us\n", MPI_Wtime() * 1e6);
        }
    }
    MPI_Finalize();
    return 0;
}
