/* ordex-expect: clean */
/*
 * mpiio_basic.c - MPI-IO values read back (2 or 4 ranks): explicit offsets,
 * a strided view (each rank's ints interleaved in the file), collective
 * reads and writes through individual file pointers, the shared file
 * pointer in rank order, MPI_Get_count of the statuses, seeks, sizes and
 * positions; accesses of different ranks are separated by MPI_File_sync,
 * MPI_Barrier, MPI_File_sync (MPI 3.1 13.6.1).  Rank 0 then prints the
 * file's bytes as the host sees them, so the cross-check against MPICH
 * compares the files too.  argv[1]: the file (default mpiio_basic.dat).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4

static void sync_all(MPI_File fh) {
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "mpiio_basic.dat";
    int rank, size, count;
    MPI_File fh;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_set_size(fh, 0);

    /* 1. explicit offsets: rank r writes N ints r*100+i at byte r*N*4 */
    int mine[N], got[N];
    for (int i = 0; i < N; i++)
        mine[i] = rank * 100 + i;
    MPI_File_write_at(fh, (MPI_Offset)rank * N * sizeof(int), mine, N, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: write_at count %d\n", rank, count);
    sync_all(fh);
    int peer = (rank + 1) % size;
    MPI_File_read_at(fh, (MPI_Offset)peer * N * sizeof(int), got, N, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: read_at of rank %d: %d %d %d %d (count %d)\n", rank, peer, got[0], got[1],
           got[2], got[3], count);
    MPI_Offset fsize;
    MPI_File_get_size(fh, &fsize);
    printf("rank %d: size %lld\n", rank, (long long)fsize);
    sync_all(fh);

    /* 2. a strided view: etype int, filetype one int every `size` ints,
     * displaced by the first section and by the rank */
    MPI_Datatype strided, filetype;
    MPI_Type_vector(1, 1, size, MPI_INT, &strided);
    MPI_Type_create_resized(strided, 0, (MPI_Aint)(size * sizeof(int)), &filetype);
    MPI_Type_commit(&filetype);
    MPI_Offset disp = (MPI_Offset)(size * N + rank) * sizeof(int);
    MPI_File_set_view(fh, disp, MPI_INT, filetype, "native", MPI_INFO_NULL);
    for (int i = 0; i < N; i++)
        mine[i] = 1000 + rank * 10 + i;
    MPI_File_write_all(fh, mine, N, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    MPI_Offset pos, byte;
    MPI_File_get_position(fh, &pos);
    MPI_File_get_byte_offset(fh, 2, &byte);
    printf("rank %d: write_all count %d, position %lld, etype 2 at byte %lld\n", rank, count,
           (long long)pos, (long long)byte);
    sync_all(fh);
    MPI_File_seek(fh, 1, MPI_SEEK_SET);
    MPI_File_read_all(fh, got, N - 1, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: read_all from 1: %d %d %d (count %d)\n", rank, got[0], got[1], got[2], count);
    MPI_Type_free(&filetype);
    MPI_Type_free(&strided);
    sync_all(fh);

    /* 3. the shared file pointer, in rank order, after both sections */
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_seek_shared(fh, 2 * size * N, MPI_SEEK_SET);
    int two[2] = {-rank, -rank - 50};
    MPI_File_write_ordered(fh, two, 2, MPI_INT, &st);
    MPI_Offset shared;
    MPI_File_get_position_shared(fh, &shared);
    printf("rank %d: shared pointer after write_ordered %lld\n", rank, (long long)shared);
    sync_all(fh);
    MPI_File_seek(fh, 0, MPI_SEEK_END);
    MPI_File_get_position(fh, &pos);
    printf("rank %d: end of file at etype %lld\n", rank, (long long)pos);
    /* reading past the end: fewer elements */
    MPI_File_read_at(fh, pos - 1, got, 3, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("rank %d: read past the end: count %d, value %d\n", rank, count, got[0]);
    int amode, flag;
    MPI_File_get_amode(fh, &amode);
    MPI_File_get_atomicity(fh, &flag);
    printf("rank %d: amode rdwr|create %d, atomic %d\n", rank,
           amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), flag);
    MPI_Group group, world;
    int cmp;
    MPI_File_get_group(fh, &group);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_compare(group, world, &cmp);
    printf("rank %d: the file's group is MPI_COMM_WORLD's: %d\n", rank, cmp == MPI_IDENT);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
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
