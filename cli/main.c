/*
 * main.c - the ordex and ordexcc front ends.
 *
 *   ordex run -n N prog.so|prog.c [args]   one simulated execution
 *   ordex cc [compiler args]                same as ordexcc
 *   ordexcc [compiler args]                 (when invoked under that name)
 */
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#include "cli/calibrate.h"
#include "cli/explore.h"
#include "cli/predict.h"
#include "cli/replay.h"
#include "cli/run.h"
#include "stategraph/trace.h"
#include "toolchain/compile.h"

static void usage(FILE *to) {
    fputs("usage: ordex COMMAND [OPTIONS] ...\n"
          "\n"
          "commands:\n"
          "  run -n N PROG [ARGS]   run an MPI program (PROG.so from ordexcc, or PROG.c) with N\n"
          "                         ranks in one process: output, deadlock and error checks,\n"
          "                         predicted time\n"
          "  cc [CC ARGS]           compile like mpicc into a program for ordex (= ordexcc)\n"
          "  explore -n N PROG [ARGS]\n"
          "                         explore every relevant ordering of messages: deadlocks,\n"
          "                         errors and message races, with a trace for each\n"
          "  replay [--stop-at N --dump] TRACE\n"
          "                         re-run one ordering recorded by explore, exactly\n"
          "  calibrate -o FILE      measure this machine with real MPICH (mpiexec -n 2) and\n"
          "                         write a platform file (see `ordex calibrate --help`)\n"
          "  predict -n N [--platform FILE] PROG [ARGS]\n"
          "                         predict the run time on the cluster FILE describes (by\n"
          "                         default the built-in platform: this machine): time per\n"
          "                         rank, critical resource, timeline; --sweep for\n"
          "                         sensitivity (see `ordex predict --help`)\n"
          "  version                print the version (also --version)\n"
          "\n"
          "exit status: 0 no error found, 1 an error was found, 2 ordex could not do its job\n"
          "see `ordex run --help` for the options of run\n",
          to);
}

/* A distributed exploration compares the hashes of memory that holds
 * pointers across processes: each must load ordex, its libraries and the
 * program at the same addresses, so it runs without address-space
 * randomisation (its own process again, once).  Returns only when that is
 * so already, or cannot be (the check at each pass then says why). */
static void distributed_without_aslr(int argc, char **argv) {
    bool dist = false;
    for (int i = 2; i < argc && !dist; i++)
        dist = strcmp(argv[i], "--distributed") == 0;
    int persona = personality(0xffffffff);
    if (!dist || persona < 0 || (persona & ADDR_NO_RANDOMIZE))
        return;
    if (personality((unsigned long)persona | ADDR_NO_RANDOMIZE) < 0)
        return;
    /* By its path, not /proc/self/exe: the process keeps its name. */
    char *self = g_file_read_link("/proc/self/exe", NULL);
    if (self)
        execv(self, argv);
    g_free(self);
}

int main(int argc, char **argv) {
    char *self = g_path_get_basename(argv[0]);
    bool as_cc = strcmp(self, "ordexcc") == 0;
    g_free(self);
    if (as_cc)
        return tc_cc(argc - 1, argv + 1);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0)
        return ordex_run(argc - 1, argv + 1);
    if (strcmp(cmd, "explore") == 0) {
        distributed_without_aslr(argc, argv);
        return ordex_explore(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "replay") == 0)
        return ordex_replay(argc - 1, argv + 1);
    if (strcmp(cmd, "cc") == 0)
        return tc_cc(argc - 2, argv + 2);
    if (strcmp(cmd, "calibrate") == 0)
        return ordex_calibrate(argc - 1, argv + 1);
    if (strcmp(cmd, "predict") == 0)
        return ordex_predict(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("ordex %s\n", ORDEX_VERSION);
        return 0;
    }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "ordex: unknown command '%s' (see ordex --help)\n", cmd);
    return 2;
}
