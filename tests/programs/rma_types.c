/*
 * rma_types.c - derived datatypes on both sides of RMA operations,
 * displacement units, window attributes and groups, dynamic windows and
 * MPI_Alloc_mem (correct program; any number of ranks >= 1).
 *
 * 1. MPI_Win_allocate of a 4x4 matrix of doubles per rank, disp_unit 8:
 *    each rank puts a column (a vector type on the target side) of 4 doubles
 *    from a contiguous buffer into its right neighbour's column `rank % 4`,
 *    then, in the next fence epoch, gets its left neighbour's row 1 into a
 *    strided buffer (a vector type on the origin side).
 * 2. MPI_Win_create with disp_unit 4 over ints: displacement 3 is byte 12.
 * 3. Attributes of the allocated window: base == the baseptr, size 128,
 *    disp_unit 8, flavor MPI_WIN_FLAVOR_ALLOCATE, model MPI_WIN_UNIFIED; the
 *    window's group compares MPI_IDENT to MPI_COMM_WORLD's.
 * 4. MPI_Win_create_dynamic: rank 0 attaches a buffer from MPI_Alloc_mem and
 *    broadcasts its address; the others MPI_Put their rank into it at
 *    address + 4*rank under MPI_Win_lock_all; rank 0 detaches and sums.
 * Prints one "rank r: ..." line per check; ordex must report no error and
 * print what tests/e2e/test_rma.c expects.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;

    /* 1 */
    double *m;
    MPI_Win win;
    MPI_Win_allocate(16 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &m, &win);
    for (int i = 0; i < 16; i++)
        m[i] = rank * 100 + i;
    MPI_Datatype column, strided;
    MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &strided);
    MPI_Type_commit(&strided);
    double col[4] = {rank + 0.5, rank + 1.5, rank + 2.5, rank + 3.5}, row[8] = {0};
    int c = rank % 4;
    MPI_Win_fence(0, win);
    MPI_Put(col, 4, MPI_DOUBLE, right, c, 1, column, win);
    MPI_Win_fence(0, win); /* the get reads what a put wrote: another epoch */
    MPI_Get(row, 1, strided, left, 4, 4, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    int lc = left % 4;
    printf("rank %d: column %d = %g %g %g %g; row of %d = %g %g %g %g (gaps %g)\n", rank, lc, m[lc],
           m[4 + lc], m[8 + lc], m[12 + lc], left, row[0], row[2], row[4], row[6],
           row[1] + row[3] + row[5] + row[7]);

    /* 3 */
    void *base;
    MPI_Aint *wsize;
    int *unit, *flavor, *model, flag;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    MPI_Group wg, cg;
    int cmp;
    MPI_Win_get_group(win, &wg);
    MPI_Comm_group(MPI_COMM_WORLD, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    printf("rank %d: base ok %d size %ld unit %d allocate %d unified %d group ident %d\n", rank,
           base == (void *)m, (long)*wsize, *unit, *flavor == MPI_WIN_FLAVOR_ALLOCATE,
           *model == MPI_WIN_UNIFIED, cmp == MPI_IDENT);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    MPI_Type_free(&column);
    MPI_Type_free(&strided);
    MPI_Win_free(&win);

    /* 2 */
    int ints[6] = {0};
    MPI_Win w2;
    MPI_Win_create(ints, sizeof ints, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
    int val = 7 + rank;
    MPI_Win_fence(0, w2);
    MPI_Put(&val, 1, MPI_INT, right, 3, 1, MPI_INT, w2);
    MPI_Win_fence(0, w2);
    printf("rank %d: ints %d %d %d %d %d %d\n", rank, ints[0], ints[1], ints[2], ints[3], ints[4],
           ints[5]);
    MPI_Win_free(&w2);

    /* 4 */
    MPI_Win dyn;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
    int *buf = NULL;
    MPI_Aint addr = 0;
    if (rank == 0) {
        MPI_Alloc_mem((MPI_Aint)(size * sizeof(int)), MPI_INFO_NULL, &buf);
        for (int i = 0; i < size; i++)
            buf[i] = -1;
        MPI_Win_attach(dyn, buf, (MPI_Aint)(size * sizeof(int)));
        MPI_Get_address(buf, &addr);
    }
    MPI_Bcast(&addr, 1, MPI_AINT, 0, MPI_COMM_WORLD);
    MPI_Win_lock_all(0, dyn);
    MPI_Put(&rank, 1, MPI_INT, 0, addr + (MPI_Aint)(rank * sizeof(int)), 1, MPI_INT, dyn);
    MPI_Win_unlock_all(dyn);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int sum = 0;
        for (int i = 0; i < size; i++)
            sum += buf[i];
        MPI_Win_detach(dyn, buf);
        MPI_Free_mem(buf);
        printf("rank 0: dynamic sum %d\n", sum);
    }
    MPI_Win_free(&dyn);
    MPI_Finalize();
    return 0;
}
