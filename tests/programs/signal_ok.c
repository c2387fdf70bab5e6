/*
 * signal_ok.c - signal handlers of a rank that a process survives.
 *
 * Rank 1 recovers twice from a SIGSEGV with sigsetjmp/siglongjmp; ranks 2
 * and up write to a page they mapped without access, and their handler makes
 * the page writable and returns, so that the write is done again and
 * succeeds (a backtrace taken in the handler reaches the function that
 * wrote); rank 0 catches SIGFPE from raise() twice with a handler that
 * returns; rank 3 blocks SIGSEGV and SIGUSR1.  Then every rank says whether
 * SIGSEGV has the handler it set (sigaction's old action; MPICH may set one
 * of its own in a process), and which of the two it has blocked.  No error;
 * output:
 *   rank 0: SIGFPE handler ran 2 times
 *   rank 1: recovered from 2 faults
 *   rank r: wrote 42 after 1 fault, seen from the handler: yes   (ranks 2..)
 *   rank r: SIGSEGV handler: its own|not its own, blocked: ...   (every rank)
 */
#include <execinfo.h>
#include <mpi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int *volatile target; /* NULL */
static sigjmp_buf env;
static volatile sig_atomic_t faults, fpes, seen;
static char *page;

static __attribute__((noinline)) void write_page(volatile int *where) {
    *where = 42;
}

static void jump_out(int sig) {
    faults++;
    siglongjmp(env, 1);
}

static void make_writable(int sig, siginfo_t *si, void *uc) {
    faults++;
    if ((char *)si->si_addr != page)
        _exit(9);
    /* A backtrace from the handler goes on into the interrupted function. */
    void *frames[32];
    int n = backtrace(frames, 32);
    for (int i = 0; i < n; i++)
        if ((char *)frames[i] >= (char *)write_page && (char *)frames[i] < (char *)write_page + 64)
            seen = 1;
    mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

static void count_fpe(int sig) {
    fpes++;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        signal(SIGFPE, count_fpe);
        raise(SIGFPE);
        MPI_Barrier(MPI_COMM_WORLD);
        raise(SIGFPE);
        printf("rank 0: SIGFPE handler ran %d times\n", (int)fpes);
    } else if (rank == 1) {
        signal(SIGSEGV, jump_out);
        if (sigsetjmp(env, 1) == 0)
            *target = 1;
        MPI_Barrier(MPI_COMM_WORLD);
        if (sigsetjmp(env, 1) == 0)
            *target = 2;
        printf("rank 1: recovered from %d faults\n", (int)faults);
    } else {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = make_writable;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &sa, NULL);
        page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        void *warm[2];
        backtrace(warm, 2); /* loads the unwinder here, not in the handler */
        MPI_Barrier(MPI_COMM_WORLD);
        write_page((volatile int *)page);
        printf("rank %d: wrote %d after %d fault, seen from the handler: %s\n", rank,
               *(volatile int *)page, (int)faults, seen ? "yes" : "no");
    }
    if (rank == 3) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGSEGV);
        sigaddset(&set, SIGUSR1);
        sigprocmask(SIG_BLOCK, &set, NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    struct sigaction old;
    sigaction(SIGSEGV, NULL, &old);
    sigset_t now;
    sigprocmask(SIG_SETMASK, NULL, &now);
    int mine = old.sa_handler == jump_out || old.sa_sigaction == make_writable;
    printf("rank %d: SIGSEGV handler: %s, blocked:%s%s\n", rank, mine ? "its own" : "not its own",
           sigismember(&now, SIGSEGV) ? " SIGSEGV" : "",
           sigismember(&now, SIGUSR1) ? " SIGUSR1" : "");
    MPI_Finalize();
    return 0;
}
