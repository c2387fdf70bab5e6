/*
 * signal_crash.c - a rank with signal dispositions of its own still crashes
 * where a process would, and ordex still says where.
 *
 * The first argument chooses what rank 1 does before it writes through a
 * NULL pointer (or overflows its stack, or aborts); ordex must report a
 * [crash] of rank 1 at the line marked with the mode's name, exit status 1:
 *   dfl       SIGSEGV set back to SIG_DFL                    (FAULT dfl)
 *   ign       SIGSEGV ignored: raise(SIGSEGV) is ignored ("rank 1: raise
 *             ignored"), a fault is not                      (FAULT ign)
 *   exit      a handler prints "rank 1: caught signal 11" and calls exit(3)
 *                                                            (FAULT exit)
 *   reraise   a handler prints, sets SIG_DFL and raises the signal again
 *                                                            (FAULT reraise)
 *   longjmp   a handler leaves with longjmp, which keeps SIGSEGV blocked:
 *             the first fault is survived ("rank 1: recovered"), the
 *             second ends the process                        (FAULT longjmp)
 *   abort     a SIGABRT handler prints and returns; abort() still ends the
 *             process                                        (FAULT abort)
 *   barrier   the handler waits in MPI_Barrier with the other ranks, prints
 *             "rank 1: handler passed the barrier" and calls exit(2)
 *                                                            (FAULT barrier)
 *   overflow  the handler runs on an alternate stack after a stack overflow,
 *             prints and calls _exit(4)           (FAULT overflow .. END)
 *   mask      SIGSEGV blocked with sigprocmask (a fault overrides that)
 *                                                            (FAULT mask)
 */
#include <mpi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int *volatile target; /* NULL; volatile so that the compiler keeps the stores */
static jmp_buf env;

static void print_and_exit(int sig) {
    printf("rank 1: caught signal %d\n", sig);
    exit(3);
}

static void print_and_reraise(int sig) {
    printf("rank 1: caught signal %d\n", sig);
    fflush(stdout);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void jump_out(int sig) {
    longjmp(env, 1);
}

static void abort_returns(int sig) {
    printf("rank 1: SIGABRT handler returns\n");
}

static void wait_for_the_others(int sig) {
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank 1: handler passed the barrier\n");
    exit(2);
}

static void on_overflow(int sig, siginfo_t *si, void *uc) {
    static const char msg[] = "rank 1: overflow handled on the alternate stack\n";
    fwrite(msg, 1, sizeof msg - 1, stdout);
    fflush(stdout);
    _exit(4);
}

static int depth(volatile int n) { /* FAULT overflow */
    volatile char big[4096];
    memset((char *)big, n & 0x7f, sizeof big);
    return depth(n + 1) + big[n % 4096];
} /* FAULT overflow END */

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "";
    if (rank == 1) {
        if (strcmp(mode, "dfl") == 0) {
            signal(SIGSEGV, SIG_DFL);
            *target = 1; /* FAULT dfl */
        } else if (strcmp(mode, "ign") == 0) {
            signal(SIGSEGV, SIG_IGN);
            raise(SIGSEGV);
            printf("rank 1: raise ignored\n");
            *target = 1; /* FAULT ign */
        } else if (strcmp(mode, "exit") == 0) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = print_and_exit;
            sigaction(SIGSEGV, &sa, NULL);
            *target = 1; /* FAULT exit */
        } else if (strcmp(mode, "reraise") == 0) {
            signal(SIGSEGV, print_and_reraise);
            *target = 1; /* FAULT reraise */
        } else if (strcmp(mode, "longjmp") == 0) {
            signal(SIGSEGV, jump_out);
            if (setjmp(env) == 0)
                *target = 1;
            printf("rank 1: recovered\n");
            fflush(stdout);
            if (setjmp(env) == 0)
                *target = 2; /* FAULT longjmp */
            printf("rank 1: recovered again\n");
        } else if (strcmp(mode, "abort") == 0) {
            signal(SIGABRT, abort_returns);
            abort(); /* FAULT abort */
        } else if (strcmp(mode, "barrier") == 0) {
            signal(SIGSEGV, wait_for_the_others);
            *target = 1; /* FAULT barrier */
        } else if (strcmp(mode, "overflow") == 0) {
            static char alt[64 * 1024];
            stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
            sigaltstack(&ss, NULL);
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_sigaction = on_overflow;
            sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
            sigaction(SIGSEGV, &sa, NULL);
            printf("rank 1: %d\n", depth(0));
        } else if (strcmp(mode, "mask") == 0) {
            sigset_t set;
            sigfillset(&set);
            sigprocmask(SIG_BLOCK, &set, NULL);
            *target = 1; /* FAULT mask */
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: survived\n", rank);
    MPI_Finalize();
    return 0;
}
