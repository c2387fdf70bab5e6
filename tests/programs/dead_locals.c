/*
 * dead_locals.c - orderings that differ only in dead local variables.
 *
 * Rank 0 takes values from ranks 1 and 2 with wildcard receives in two
 * rounds and adds them up.  What it remembers of the first round's order
 * is kept only in variables whose lifetime has ended when the second round
 * starts, so the two orderings of the first round reach the same state at
 * the second round and exploration should merge them there:
 *   block  the order is kept in variables of a block that has ended, in the
 *          frame that called the function now in MPI_Recv;
 *   later  it is kept in a variable of the loop body declared after the
 *          receive now pending, which this iteration has not reached yet;
 *   live   as later, but it is also kept in a variable that is still live,
 *          and printed at the end: the orderings must not be merged;
 *   goto   as later, but the loop is made with a backward goto that keeps
 *          the same objects, and the value declared after the receive is
 *          printed at the end: the orderings must not be merged.
 *
 * Expected: no error; rank 0 prints "sum 62" (block, later).  With live, a
 * message race: rank 0 prints "sum 62, first 10" or "sum 62, first 20";
 * with goto, a message race: "sum 162" when rank 1's value came first in
 * round 0, else "sum 62".
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int receive_any(int tag) {
    int v = 0; /* no trace of an earlier call's value in this frame */
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return v;
}

/* The loop of "later" made with a backward goto (in a function of its own:
 * a label anywhere in a function turns declaration order off for all of it). */
static void goto_loop(void) {
    int sum = 0, v = 0, round = 0, *seen = NULL;
    {
    again:
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (seen) /* the object declared below, from the previous pass */
            sum += 100 * (*seen % 10 == 0 && *seen / 10 == 1);
        int first = v;
        seen = &first;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += first + v;
        v = 0;
        if (++round < 2)
            goto again;
    }
    printf("sum %d\n", sum);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "block";
    int later = strcmp(mode, "block") != 0, live = strcmp(mode, "live") == 0;
    int with_goto = strcmp(mode, "goto") == 0;
    if (rank == 0 && !later) {
        int sum = 0;
        {
            int first = receive_any(0);
            int second = receive_any(0);
            sum += first + second;
        }
        sum += receive_any(1) + receive_any(1);
        printf("sum %d\n", sum);
    } else if (rank == 0 && with_goto) {
        goto_loop();
    } else if (rank == 0) {
        int sum = 0, v = 0, kept = 0;
        for (int round = 0; round < 2; round++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int first = v;
            if (live && round == 0)
                kept = first;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += first + v;
            v = 0;
        }
        if (live)
            printf("sum %d, first %d\n", sum, kept);
        else
            printf("sum %d\n", sum);
    } else if (rank <= 2) {
        for (int round = 0; round < 2; round++) {
            int v = rank * 10 + round;
            MPI_Send(&v, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
