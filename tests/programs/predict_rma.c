/*
 * predict_rma.c - one-sided timings that `ordex predict` must get exactly
 * (tests/e2e/test_predict.c, --ignore-compute, tests/programs/predict_rma.ini:
 * 1 ms latency, 1 MB/s, one rank per node, no overheads: a message of B
 * bytes takes 1 ms + B us).  Ranks print when their calls returned
 * ("rank R closed at T us").  argv[1] picks the case; the times below are
 * worked out from the model of simulator/rma.h ("simulated time").
 *
 * Every case starts with MPI_Win_create (MPICH's allgather of 32 bytes per
 * member, a ring): on 2 ranks one round of 1.032 ms, "created at 1032.000
 * us"; on 3 ranks two rounds, 2064 us.  A fence or MPI_Win_free is MPICH's
 * dissemination barrier, on 2 ranks one round of empty messages: 1 ms.
 *
 *   empty       fence, fence, free: "opened at 2032.000 us", "closed at
 *               3032.000 us" and "freed at 4032.000 us" on both ranks
 *   put         as empty, with rank 0 putting 1 MB into rank 1's window
 *               between the fences: the put leaves at 2032 us and arrives
 *               1 ms + 1 s later, at 1003032 us; rank 0 enters the barrier
 *               then, so it closes at 1003032 us (rank 1's barrier message
 *               came long ago) and rank 1, waiting for rank 0's message,
 *               at 1004032 us: 1001 ms after the empty fence.  With
 *               network.send_overhead=1ms and recv_overhead=2ms: the put
 *               leaves 1 ms later (rank 0 closes at 1004032 us, rank 1's
 *               fence ends at 1005032 us) and rank 1 pays its receive
 *               overhead before its next call (MPI_Wtime): "rank 1 closed at
 *               1007032.000 us"
 *   get         rank 0 gets 1 MB from rank 1: a request (1 ms) and the
 *               reply (1 ms + 1 s): closed at 1004032 us (rank 0) and
 *               1005032 us (rank 1)
 *   acc         rank 0 accumulates 250000 ints (MPI_SUM, 1 MB) into rank
 *               1: the message arrives at 1003032 us, then rank 1's node
 *               computes 250000 elements x 1 ns (SIM_TIMED_ACC_ELEMENT_WORK,
 *               at cluster.speed 1): 250 us, done at 1003282 us: closed at
 *               1003282 us (rank 0) and 1004282 us (rank 1).  With
 *               cluster.speed=2 the computation takes 125 us: 1003157 and
 *               1004157 us
 *   fop         MPI_Fetch_and_op of one int: a message of 4 bytes (1.004
 *               ms), 1 ns of computation, a reply of 4 bytes (1.004 ms):
 *               done at 4040.001 us; closed at 4040.001 us (rank 0) and
 *               5040.001 us (rank 1)
 *   cas         MPI_Compare_and_swap of one int: 8 bytes out (the value and
 *               the comparand, 1.008 ms), 1 ns, 4 bytes back: closed at
 *               4044.001 and 5044.001 us
 *   lock        rank 0 locks rank 1 exclusively at 1032 us: the request
 *               arrives at 2032 us, the grant back at 3032 us ("locked at
 *               3032.000 us"); it puts 1 MB (arrives 1004032 us) and
 *               flushes ("flushed at 1004032.000 us"), then unlocks: its
 *               operations are done, the unlock message leaves and the call
 *               returns ("unlocked at 1004032.000 us")
 *   contended   3 ranks, created at 2064 us; ranks 0 and 1 lock rank 2
 *               exclusively.  Rank 0 asks at 2064 us and has the lock at
 *               4064 us, computes 10 ms and unlocks at 14064 us (its unlock
 *               message arrives at 15064 us).  Rank 1 computes 1 ms first,
 *               asks at 3064 us (arriving 4064 us), is granted when rank
 *               0's unlock message arrives (15064 us), and has the grant at
 *               16064 us: "rank 1 locked at 16064.000 us" (5064 us had the
 *               lock been free)
 *   pscw        rank 1 computes 5 ms, posts for rank 0 at 6032 us (the post
 *               reaches rank 0 at 7032 us) and waits; rank 0 starts, puts
 *               1 MB at 1032 us, which leaves only when the post has
 *               arrived (7032 us) and arrives at 1008032 us, and completes:
 *               "rank 0 completed at 1008032.000 us"; its complete message
 *               reaches rank 1 1 ms later: "rank 1 waited at 1009032.000 us"
 *   rput        rank 0 locks all (requests to itself, at once, and to rank
 *               1: the grant is back at 3032 us, "locked all at 3032.000
 *               us"), MPI_Rput of 1 MB to rank 1 and MPI_Wait: "rput done
 *               at 1004032.000 us"
 *   plain       rank 0 puts an int into rank 1's window while rank 1 stores
 *               into the same int, in one fence epoch: a data race that
 *               `ordex run` reports (the store is seen through the
 *               instrumentation of ordexcc's build) and that `ordex predict`
 *               of the same build does not look for (the instrumentation
 *               stays off: it would slow the measured computation)
 */
#include <mpi.h>
#include <ordex.h>
#include <stdio.h>
#include <string.h>

static char buf[1000000];
static int ints[250000];

static double us(void) {
    return MPI_Wtime() * 1e6;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "empty";
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    printf("rank %d created at %.3f us\n", rank, us());
    int one = 1, old = 0, cmp = 0;
    if (strcmp(mode, "lock") == 0) {
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            printf("rank 0 locked at %.3f us\n", us());
            MPI_Put(buf, (int)sizeof buf, MPI_BYTE, 1, 0, (int)sizeof buf, MPI_BYTE, win);
            MPI_Win_flush(1, win);
            printf("rank 0 flushed at %.3f us\n", us());
            MPI_Win_unlock(1, win);
            printf("rank 0 unlocked at %.3f us\n", us());
        }
    } else if (strcmp(mode, "contended") == 0) {
        if (rank < 2) {
            if (rank == 1)
                ordex_compute(1e-3);
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
            printf("rank %d locked at %.3f us\n", rank, us());
            if (rank == 0)
                ordex_compute(10e-3);
            MPI_Win_unlock(2, win);
            printf("rank %d unlocked at %.3f us\n", rank, us());
        }
    } else if (strcmp(mode, "pscw") == 0) {
        MPI_Group world, peer;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        int other = 1 - rank;
        MPI_Group_incl(world, 1, &other, &peer);
        if (rank == 1) {
            ordex_compute(5e-3);
            MPI_Win_post(peer, 0, win);
            MPI_Win_wait(win);
            printf("rank 1 waited at %.3f us\n", us());
        } else {
            MPI_Win_start(peer, 0, win);
            MPI_Put(buf, (int)sizeof buf, MPI_BYTE, 1, 0, (int)sizeof buf, MPI_BYTE, win);
            MPI_Win_complete(win);
            printf("rank 0 completed at %.3f us\n", us());
        }
        MPI_Group_free(&peer);
        MPI_Group_free(&world);
    } else if (strcmp(mode, "rput") == 0) {
        if (rank == 0) {
            MPI_Win_lock_all(0, win);
            printf("rank 0 locked all at %.3f us\n", us());
            MPI_Request req;
            MPI_Rput(buf, (int)sizeof buf, MPI_BYTE, 1, 0, (int)sizeof buf, MPI_BYTE, win, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            printf("rank 0 rput done at %.3f us\n", us());
            MPI_Win_unlock_all(win);
        }
    } else {
        MPI_Win_fence(0, win);
        printf("rank %d opened at %.3f us\n", rank, us());
        if (strcmp(mode, "put") == 0 && rank == 0)
            MPI_Put(buf, (int)sizeof buf, MPI_BYTE, 1, 0, (int)sizeof buf, MPI_BYTE, win);
        if (strcmp(mode, "get") == 0 && rank == 0)
            MPI_Get(buf, (int)sizeof buf, MPI_BYTE, 1, 0, (int)sizeof buf, MPI_BYTE, win);
        if (strcmp(mode, "acc") == 0 && rank == 0)
            MPI_Accumulate(ints, 250000, MPI_INT, 1, 0, 250000, MPI_INT, MPI_SUM, win);
        if (strcmp(mode, "fop") == 0 && rank == 0)
            MPI_Fetch_and_op(&one, &old, MPI_INT, 1, 0, MPI_SUM, win);
        if (strcmp(mode, "cas") == 0 && rank == 0)
            MPI_Compare_and_swap(&one, &cmp, &old, MPI_INT, 1, 0, win);
        if (strcmp(mode, "plain") == 0) {
            if (rank == 0)
                MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
            else
                buf[0] = 7; /* races with the put */
        }
        MPI_Win_fence(0, win);
        printf("rank %d closed at %.3f us\n", rank, us());
    }
    MPI_Win_free(&win);
    printf("rank %d freed at %.3f us\n", rank, us());
    MPI_Finalize();
    return 0;
}
