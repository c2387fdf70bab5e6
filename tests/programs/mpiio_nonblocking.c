/* ordex-expect: clean */
/*
 * mpiio_nonblocking.c - nonblocking and split collective MPI-IO (2 or 4
 * ranks): MPI_File_iwrite_at and iread_at completed by MPI_Wait, whose
 * status counts the elements; iwrite_all/iread_all through the individual
 * file pointers; MPI_File_iwrite_shared; the split collectives
 * write_all_begin/end, read_at_all_begin/end and read_ordered_begin/end;
 * MPI_File_get_view and MPI_File_get_type_extent.  Accesses of different
 * ranks are separated by sync, barrier, sync.  Rank 0 prints the file.
 * argv[1]: the file (default mpiio_nonblocking.dat).
 */
#include <mpi.h>
#include <stdio.h>

static void sync_all(MPI_File fh) {
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_nonblocking.dat";
    int rank, size, count, a[2], b[2];
    MPI_File fh;
    MPI_Request req;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_set_size(fh, 0);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);

    a[0] = 10 * rank;
    a[1] = 10 * rank + 1;
    MPI_File_iwrite_at(fh, 2 * rank, a, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: iwrite_at count %d\n", rank, count);
    sync_all(fh);
    MPI_File_iread_at(fh, 2 * ((rank + 1) % size), b, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: iread_at %d %d count %d\n", rank, b[0], b[1], count);
    sync_all(fh);

    /* collective, through the individual pointers, after the first block */
    MPI_File_seek(fh, 2 * size + 2 * rank, MPI_SEEK_SET);
    a[0] = 100 + rank;
    a[1] = 200 + rank;
    MPI_File_iwrite_all(fh, a, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: iwrite_all count %d\n", rank, count);
    sync_all(fh);
    MPI_File_seek(fh, 2 * size, MPI_SEEK_SET);
    MPI_File_iread_all(fh, b, 2, MPI_INT, &req);
    MPI_Wait(&req, &st);
    printf("rank %d: iread_all %d %d\n", rank, b[0], b[1]);
    sync_all(fh);

    /* split collectives */
    MPI_File_seek(fh, 4 * size + rank, MPI_SEEK_SET);
    a[0] = 300 + rank;
    MPI_File_write_all_begin(fh, a, 1, MPI_INT);
    MPI_File_write_all_end(fh, a, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: write_all_end count %d\n", rank, count);
    sync_all(fh);
    MPI_File_read_at_all_begin(fh, 4 * size + (rank + 1) % size, b, 1, MPI_INT);
    MPI_File_read_at_all_end(fh, b, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: read_at_all_end %d count %d\n", rank, b[0], count);
    sync_all(fh);

    /* the shared pointer: one iwrite_shared each (in some order), then
     * everyone reads its own share of the file back in rank order */
    MPI_File_seek_shared(fh, 5 * size, MPI_SEEK_SET);
    a[0] = 400;
    MPI_File_iwrite_shared(fh, a, 1, MPI_INT, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    sync_all(fh);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_read_ordered_begin(fh, b, 2, MPI_INT);
    MPI_File_read_ordered_end(fh, b, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: read_ordered %d %d count %d\n", rank, b[0], b[1], count);

    MPI_Offset disp;
    MPI_Datatype etype, ftype;
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Aint ext;
    MPI_File_get_view(fh, &disp, &etype, &ftype, rep);
    MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext);
    printf(
        "rank %d: view disp %lld etype int %d filetype int %d datarep %s, extent of double %ld\n",
        rank, (long long)disp, etype == MPI_INT, ftype == MPI_INT, rep, (long)ext);
    MPI_File_close(&fh);
    if (rank == 0) {
        FILE *f = fopen(path, "rb");
        int v, i = 0;
        printf("file:");
        while (f && fread(&v, sizeof v, 1, f) == 1)
            printf("%s%d", i++ % 8 ? " " : "\n  ", v);
        printf("\n");
        if (f)
            fclose(f);
        MPI_File_delete(path, MPI_INFO_NULL);
    }
    MPI_Finalize();
    return 0;
}
