/*
 * mpi31_interop.c - language interoperability (MPI 3.1 section 17.2):
 * MPI_File_c2f/f2c and MPI_Info_c2f/f2c give back the same handle (null
 * handles included) and a Fortran handle that is an integer; MPI_Status_c2f
 * and MPI_Status_f2c convert between the C status and the Fortran one (an
 * array of MPI_STATUS_SIZE integers, MPI_F_STATUS_SIZE in C, with the source, tag and error at
 * MPI_F_SOURCE, MPI_F_TAG and MPI_F_ERROR), so that MPI_Get_count on the
 * status converted back still gives the received count.  A rank prints
 * "rank R: WHAT ok" per check, or WRONG.
 *
 *   mpi31_interop DIR   all checks (a file DIR/interop.dat is made and
 *                       deleted); no finding; output equals real MPICH's
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void report(const char *what, int ok) {
    printf("rank %d: %s %s\n", rank, what, ok ? "ok" : "WRONG");
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *dir = argc > 1 ? argv[1] : ".";

    char path[4096];
    snprintf(path, sizeof path, "%s/interop.dat", dir);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &fh);
    MPI_Fint ffh = MPI_File_c2f(fh);
    MPI_File back = MPI_File_f2c(ffh);
    int amode = 0;
    MPI_File_get_amode(back, &amode);
    report("file c2f/f2c", back == fh && (amode & MPI_MODE_RDWR) &&
                               MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL);
    MPI_File_close(&back);

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "colour", "blue");
    MPI_Fint finfo = MPI_Info_c2f(info);
    MPI_Info info2 = MPI_Info_f2c(finfo);
    char val[16] = "";
    int flag = 0;
    MPI_Info_get(info2, "colour", sizeof val - 1, val, &flag);
    report("info c2f/f2c", info2 == info && flag && !strcmp(val, "blue") &&
                               MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL);
    MPI_Info_free(&info2);

    /* A received status through Fortran and back. */
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    double out[5] = {1, 2, 3, 4, 5}, in[8];
    MPI_Status st, st2;
    MPI_Sendrecv(out, 3 + rank % 2, MPI_DOUBLE, to, 10 + rank, in, 8, MPI_DOUBLE, from, MPI_ANY_TAG,
                 MPI_COMM_WORLD, &st);
    MPI_Fint fst[MPI_F_STATUS_SIZE]; /* Fortran's MPI_STATUS_SIZE */
    MPI_Status_c2f(&st, fst);
    int ok = fst[MPI_F_SOURCE] == from && fst[MPI_F_TAG] == 10 + from &&
             fst[MPI_F_ERROR] == st.MPI_ERROR;
    memset(&st2, 0xff, sizeof st2);
    MPI_Status_f2c(fst, &st2);
    int count = -1;
    MPI_Get_count(&st2, MPI_DOUBLE, &count);
    ok = ok && st2.MPI_SOURCE == from && st2.MPI_TAG == 10 + from && count == 3 + from % 2;
    report("status c2f/f2c", ok);

    MPI_Finalize();
    return 0;
}
