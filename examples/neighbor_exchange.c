/*
 * neighbor_exchange.c - border exchange that reads a receive buffer too early.
 *
 * The ranks form a chain; each holds CELLS integer cells plus two halo cells.
 * Every iteration each rank sends its edge cells to its neighbours (MPI_Isend) and
 * receives their borders in arrival order with MPI_ANY_SOURCE (tag = iteration),
 * using status.MPI_SOURCE to tell left from right.  To overlap, it posts the
 * receive for the second border (line 92) before it has stored the first one,
 * completes its own sends (line 96), and only then copies the first border
 * into the halo (line 98).
 *
 * THE BUG (default): both receives use the same buffer `border`.  If the second
 * neighbour's message is matched while the rank waits at line 96, it
 * overwrites the first border before line 98 reads it, so the first
 * neighbour's halo gets the second neighbour's value.  The program reads a
 * receive buffer while a receive into it is pending (erroneous in MPI), and its
 * result depends on the message ordering.  With the argument --fixed the two
 * receives alternate between two buffers (double buffering) and the program is
 * correct for every ordering.
 *
 * Run:
 *   ./ordex run     -n 3 examples/neighbor_exchange.c [--fixed]
 *   ./ordex explore -n 3 examples/neighbor_exchange.c [--fixed]
 *   mpicc -o neighbor_exchange examples/neighbor_exchange.c && mpiexec -n 3 ./neighbor_exchange
 *
 * Expected ordex verdicts:
 *   buggy, n >= 3: run and explore: data race - line 98 reads `border` while
 *     the receive posted at line 92 into it is pending.  Built with `ordexcc
 *     --no-access-checks`, explore reports a message race instead: checksums
 *     and total differ with which message completes the receive of line 92
 *     of a middle rank: matched during MPI_Waitall at line 96 (wrong halo)
 *     or only at line 100 (correct).  With buffered sends the natural order
 *     prints the correct output below, with
 *     --send-mode=rendezvous the middle ranks block in MPI_Waitall and the
 *     natural order already overwrites (n=3: "neighbor_exchange: total 1455411").
 *   buggy, n <= 2: no error (no rank has two neighbours).
 *   --fixed, any n: no error (run and explore); stdout below.
 *
 * Expected stdout with --fixed (and buggy when no overwrite happened):
 *   rank r: checksum X    (one line per rank)
 *   neighbor_exchange: total T
 *   n=2: rank 0 277612, rank 1 156487, total 434099
 *   n=4: rank 0 277612, rank 1 863197, rank 2 731262, rank 3 868606, total 2740677
 * Real MPICH, buggy, n=3 and n=4: the total varies from run to run (in 30 runs of
 * n=4, 19 different totals); --fixed always prints the values above.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define CELLS 4
#define ITERS 4
#define MOD 1000003L

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int fixed = argc > 1 && strcmp(argv[1], "--fixed") == 0;
    int nbuf = fixed ? 2 : 1; /* BUG without --fixed: one buffer for both borders */

    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    int nnb = (left != MPI_PROC_NULL) + (right != MPI_PROC_NULL);

    long u[CELLS + 2], v[CELLS + 2], border[2];
    for (int i = 1; i <= CELLS; i++) {
        u[i] = (rank * CELLS + i) * (rank + 3) % 97;
    }
    u[0] = u[CELLS + 1] = 0; /* halo; stays 0 at the ends of the chain */

    for (int it = 0; it < ITERS; it++) {
        MPI_Request sreq[2], rreq;
        MPI_Status st, sst[2];
        st.MPI_SOURCE = MPI_PROC_NULL;
        int ns = 0;
        if (left != MPI_PROC_NULL) {
            MPI_Isend(&u[1], 1, MPI_LONG, left, it, MPI_COMM_WORLD, &sreq[ns++]);
        }
        if (right != MPI_PROC_NULL) {
            MPI_Isend(&u[CELLS], 1, MPI_LONG, right, it, MPI_COMM_WORLD, &sreq[ns++]);
        }
        if (nnb > 0) {
            MPI_Irecv(&border[0], 1, MPI_LONG, MPI_ANY_SOURCE, it, MPI_COMM_WORLD, &rreq);
            MPI_Wait(&rreq, &st);
        }
        for (int k = 0; k < nnb; k++) {
            int src = st.MPI_SOURCE;
            long *cur = &border[k % nbuf];
            if (k + 1 < nnb) { /* overlap: post the receive for the other border now */
                MPI_Irecv(&border[(k + 1) % nbuf], 1, MPI_LONG, MPI_ANY_SOURCE, it, // [POST]
                          MPI_COMM_WORLD, &rreq);
            }
            if (k == 0) {
                MPI_Waitall(ns, sreq, sst); /* [WAITS] */
            }
            u[src == left ? 0 : CELLS + 1] = *cur; /* [READ] */
            if (k + 1 < nnb) {
                MPI_Wait(&rreq, &st); /* [WAIT2] */
            }
        }
        for (int i = 1; i <= CELLS; i++) {
            v[i] = (u[i - 1] + 2 * u[i] + 3 * u[i + 1] + it) % MOD;
        }
        memcpy(&u[1], &v[1], CELLS * sizeof(long));
    }

    long mine = 0, total = 0;
    for (int i = 1; i <= CELLS; i++) {
        mine = (mine * 31 + u[i]) % MOD;
    }
    printf("rank %d: checksum %ld\n", rank, mine);
    fflush(stdout);
    MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("neighbor_exchange: total %ld\n", total);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
