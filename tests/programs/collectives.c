/*
 * collectives.c - bcast, reduce, allreduce, gather, scatter, allgather,
 * alltoall and scan on MPI_COMM_WORLD and on a communicator split by parity.
 *
 * Every rank prints its results in one line per collective, tagged with the
 * communicator ("world" or "half").  No error; stdout equals real MPICH's
 * (compare sorted lines).
 */
#include <mpi.h>
#include <stdio.h>

static void run(MPI_Comm comm, const char *name, int wrank) {
    int r, n, i;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    int v = wrank * 3 + 1, b = r == 0 ? 77 + wrank : -1, red = -1, all = -1, scan = -1;
    int g[16] = {0}, s[16], sc = -1, ag[16] = {0}, out[16], in[16] = {0};
    MPI_Bcast(&b, 1, MPI_INT, 0, comm);
    MPI_Reduce(&v, &red, 1, MPI_INT, MPI_SUM, n - 1, comm);
    MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_MAX, comm);
    MPI_Gather(&v, 1, MPI_INT, g, 1, MPI_INT, 0, comm);
    for (i = 0; i < n; i++) {
        s[i] = 100 * i + wrank;
        out[i] = 10 * wrank + i;
    }
    MPI_Scatter(s, 1, MPI_INT, &sc, 1, MPI_INT, n - 1, comm);
    MPI_Allgather(&v, 1, MPI_INT, ag, 1, MPI_INT, comm);
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, comm);
    MPI_Scan(&v, &scan, 1, MPI_INT, MPI_SUM, comm);
    char line[512];
    int len = snprintf(line, sizeof line, "%s %d/%d: gather", name, wrank, r);
    for (i = 0; i < n; i++) {
        len += snprintf(line + len, sizeof line - len, " %d", g[i]);
    }
    len += snprintf(line + len, sizeof line - len, " allgather");
    for (i = 0; i < n; i++) {
        len += snprintf(line + len, sizeof line - len, " %d", ag[i]);
    }
    len += snprintf(line + len, sizeof line - len, " alltoall");
    for (i = 0; i < n; i++) {
        len += snprintf(line + len, sizeof line - len, " %d", in[i]);
    }
    printf("%s %d/%d: bcast %d reduce %d allreduce %d scatter %d scan %d\n%s\n", name, wrank, r, b,
           red, all, sc, scan, line);
    fflush(stdout);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    run(MPI_COMM_WORLD, "world", rank);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half); /* reversed order */
    run(half, "half", rank);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
