/*
 * rma_ring.c - every rank writes its id into its right neighbour's window,
 * once per synchronisation mode, and reads its left neighbour's back
 * (correct program).
 *
 * Phases, each on the same window of 8 ints per rank (slot = phase):
 *   fence:  MPI_Put between two MPI_Win_fence
 *   pscw:   MPI_Win_post to the left neighbour, MPI_Win_start to the right,
 *           MPI_Put, MPI_Win_complete, MPI_Win_wait (odd ranks: MPI_Win_test
 *           until it says done)
 *   lock:   MPI_Win_lock(MPI_LOCK_EXCLUSIVE) on the right neighbour, MPI_Put,
 *           MPI_Win_unlock
 *   rput:   MPI_Win_lock_all, MPI_Rput + MPI_Wait, MPI_Win_unlock_all
 *   get:    MPI_Get of the left neighbour's slot 0 under fences
 *   rget:   MPI_Rget of the right neighbour's slot 2 under MPI_Win_lock
 *           (shared), completed by MPI_Wait
 * A barrier separates the phases.  Each rank then prints
 *   rank R: fence L pscw L lock L rput L get G rget H
 * with L = (R-1+n)%n*10+phase, G = L of the fence phase read back from the
 * left neighbour, H = the right neighbour's lock-phase value (its left is R).
 * ordex must report no error and print exactly that (checked by
 * tests/e2e/test_rma.c).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int slots[8] = {0};
    MPI_Win win;
    MPI_Win_create(slots, sizeof slots, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

    int v = rank * 10 + 0;
    MPI_Win_fence(0, win);
    MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);

    MPI_Group world, gl, gr;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &gl);
    MPI_Group_incl(world, 1, &right, &gr);
    int v1 = rank * 10 + 1;
    MPI_Win_post(gl, 0, win);
    MPI_Win_start(gr, 0, win);
    MPI_Put(&v1, 1, MPI_INT, right, 1, 1, MPI_INT, win);
    MPI_Win_complete(win);
    if (rank % 2) { /* odd ranks poll */
        int done = 0;
        while (!done)
            MPI_Win_test(win, &done);
    } else {
        MPI_Win_wait(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    int v2 = rank * 10 + 2;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(&v2, 1, MPI_INT, right, 2, 1, MPI_INT, win);
    MPI_Win_unlock(right, win);
    MPI_Barrier(MPI_COMM_WORLD);

    int v3 = rank * 10 + 3;
    MPI_Request req;
    MPI_Win_lock_all(0, win);
    MPI_Rput(&v3, 1, MPI_INT, right, 3, 1, MPI_INT, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    int g = -1;
    MPI_Win_fence(0, win);
    MPI_Get(&g, 1, MPI_INT, left, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);

    int h = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Rget(&h, 1, MPI_INT, right, 2, 1, MPI_INT, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int h_at_wait = h;
    MPI_Win_unlock(right, win);

    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    printf("rank %d: fence %d pscw %d lock %d rput %d get %d rget %d\n", rank, slots[0], slots[1],
           slots[2], slots[3], g, h_at_wait);
    MPI_Win_unlock(rank, win);
    MPI_Group_free(&gl);
    MPI_Group_free(&gr);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
