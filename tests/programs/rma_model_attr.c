/*
 * rma_model_attr.c - prints the MPI_WIN_MODEL attribute of a window:
 * MPI_WIN_UNIFIED by default, MPI_WIN_SEPARATE under --rma-model separate.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank, buf = 0, *model, flag = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    printf("rank %d: flag %d model %s\n", rank, flag,
           *model == MPI_WIN_SEPARATE  ? "separate"
           : *model == MPI_WIN_UNIFIED ? "unified"
                                       : "?");
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
