/*
 * mpi31_datarep.c - MPI_Register_datarep (MPI 3.1 section 13.5.3), which
 * ordex does not implement: the call (marked DATAREP) stops the run as
 * unsupported (exit status 2), naming the function and this line.
 */
#include <mpi.h>
#include <stdio.h>

static int identity(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                    MPI_Offset position, void *extra_state) {
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra_state;
    return MPI_SUCCESS;
}

static int extent(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state) {
    (void)extra_state;
    MPI_Aint lb;
    return MPI_Type_get_extent(datatype, &lb, file_extent);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Register_datarep("mine", identity, identity, extent, NULL); // [DATAREP]
    printf("registered\n");
    MPI_Finalize();
    return 0;
}
