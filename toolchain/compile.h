/*
 * compile.h - building programs for ordex (ordexcc), and the cache that
 * lets `ordex run prog.c` compile on the fly.
 */
#ifndef ORDEX_TC_COMPILE_H
#define ORDEX_TC_COMPILE_H

#include <stdbool.h>

/* The ordexcc option that builds without the instrumentation of loads and
 * stores (scheduler/access_hook.h). */
#define TC_NO_ACCESS_CHECKS "--no-access-checks"

/* Runs the C compiler like mpicc would, against MPICH's mpi.h, producing a
 * loadable program (or objects with -c).  args are the user's compiler
 * arguments; unless one of them is TC_NO_ACCESS_CHECKS (which is not passed
 * on), the program's loads and stores are instrumented for ordex (GCC's
 * -fsanitize=thread without its library, memcpy, memmove and memset
 * wrapped).  Returns 0 on success, 2 after printing one line on failure. */
int tc_cc(int argc, char **argv);

/* Compiles one C source into a cached program; returns its path (g_free)
 * or NULL after printing an error line.  optimize: with -O2, as a program
 * whose speed matters is built (`ordex predict` measures its computation);
 * otherwise without optimisation, which keeps every variable for gdb.
 * access_checks: with the instrumentation of loads and stores, as ordexcc
 * builds by default (run, explore and replay need it to see plain accesses
 * to tracked memory; prediction measures the program's computation, which
 * it would slow down).  Each combination is an entry of its own.
 * The cache ($ORDEX_CACHE, else ~/.cache/ordex) reuses a program only while
 * the compiler command (flags, source path, compiler) is the same and every
 * file the compiler read for it (the source and each header it included, by
 * the compiler's own dependency output) has the content it had then. */
char *tc_compile_cached(const char *source, bool quiet, bool optimize, bool access_checks);

#endif
