/*
 * fork_child.c - a rank forks a child that returns from main without
 * _exit, and ranks run commands.
 *
 * Rank 1's child prints a line and returns 5 from main: it is a process of
 * its own and ends there, once.  Rank 2 forks and execs echo.  Every rank
 * runs system("true").  With the argument "mpi", rank 1's child does not
 * return but goes on into MPI_Barrier like its parent, which a forked child
 * cannot do.  No error; output (once each):
 *   rank 1: child says hello
 *   rank 1: child ended with status 5
 *   rank 2: exec'd echo
 *   rank 2: echo ended with status 0
 *   rank r: system("true") = 0      (every rank)
 *   rank r: done                    (every rank)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int child_mpi = argc > 1 && strcmp(argv[1], "mpi") == 0;
    if (rank == 1) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            printf("rank 1: child says hello\n");
            if (!child_mpi)
                return 5;
        }
        if (pid > 0) {
            int status;
            waitpid(pid, &status, 0);
            printf("rank 1: child ended with status %d\n",
                   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
    }
    if (rank == 2) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/echo", "echo", "rank 2: exec'd echo", (char *)NULL);
            _exit(127);
        }
        int status;
        waitpid(pid, &status, 0);
        printf("rank 2: echo ended with status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    int rc = system("true");
    printf("rank %d: system(\"true\") = %d\n", rank, rc);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
