/*
 * loader.h - one loaded copy of the program, and of its own libraries, per
 * rank.
 *
 * Each rank gets its own copy of the program's shared object, so its
 * globals (.data, .bss) are its own, exactly as in separate processes; the
 * same holds for every shared library the program loads that is not a
 * system library (the user's own libmylib.so, found through the program's
 * run path or LD_LIBRARY_PATH): each rank loads it afresh.  System libraries
 * (those under /lib, /lib64, /usr/lib or /usr/lib64: the C library, libm,
 * MPICH's, the distribution's packages) are loaded once and shared by every
 * rank, as ordex's own are.
 *
 * The dynamic linker loads a file only once per process: it finds a loaded
 * object by name, by soname or by file identity in its list of loaded
 * objects.  So while a batch of copies loads, every per-rank object is kept
 * off that list (see loader.c), and each rank's dlopen of the program loads
 * the program and its own libraries anew, from their real files: a debugger
 * reads their symbols and debug information there, and run paths with
 * $ORIGIN work as they do outside ordex.  Nothing is written to disk.
 */
#ifndef ORDEX_SCHED_LOADER_H
#define ORDEX_SCHED_LOADER_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int (*sched_main_fn)(int, char **);

typedef struct sched_image {
    void *handle;       /* dlopen handle */
    uintptr_t base;     /* load bias: address = base + file virtual address */
    sched_main_fn main; /* the program's main */
    /* The writable segments (.data, .bss, ...) of the copy and of the
     * rank's copies of its own libraries: the rank's globals.  The arrays
     * live as long as the process (copies are never unloaded). */
    uintptr_t *rw_start;
    size_t *rw_len;
    int n_rw;
} sched_image;

/* Marker symbol that ordexcc links into every program it builds. */
#define SCHED_PROGRAM_MARKER "ordex_program_abi"
#define SCHED_PROGRAM_ABI "ordex-program-1"

/* Checks that path is a program built by ordexcc.  On failure returns false
 * and sets *err (g_free) to one line naming the file and the problem. */
bool sched_program_check(const char *path, char **err);

/* Whether the program that sched_program_check last accepted was compiled
 * with ordexcc's instrumentation of loads and stores (access_hook.h): it
 * calls __tsan_ functions, and its relocations name those calls (a stripped
 * program counts as not instrumented).  False after a refusal. */
bool sched_program_instrumented(void);

/* Whether the program that sched_program_check last accepted calls a
 * function that opens a file by name (fopen, open, creat, mkstemp, tmpfile,
 * MPI_File_open and their variants): its files are the host's, shared by
 * every process that runs a copy of it at once.  Libraries it loads are not
 * looked at.  False after a refusal. */
bool sched_program_opens_files(void);

/* Whether the program that sched_program_check last accepted, or a library
 * of its own (not a system library) that sched_image_load loaded with it,
 * may cancel a send: it refers to MPI_Cancel or PMPI_Cancel, or to dlopen,
 * dlmopen, dlsym or dlvsym (code found at run time could call MPI_Cancel),
 * or its symbol table cannot be read.  When false, a message once sent
 * stays queued until its destination takes it.  True after a refusal. */
bool sched_program_may_cancel(void);

/* The calls of load and store hooks that the file of that program has
 * disarmed (access_sites.h): virtual addresses (uint64_t); empty when
 * none.  Valid until the next sched_program_check. */
const GArray *sched_program_access_sites(void);

/* Loads a private copy of the program at path, with private copies of the
 * non-system libraries it needs, and starts (or continues) a batch: until
 * sched_images_loaded, the copies are off the dynamic linker's list.
 * keep_files: a debugger watches the process (ordex replay --gdb); once the
 * batch is loaded, the dynamic linker's debugger interface is made to
 * announce every copy.  On failure returns false with *err set (one line);
 * the copies loaded before stay valid. */
bool sched_image_load(const char *path, bool keep_files, sched_image *img, char **err);

/* Ends a batch of sched_image_load calls: puts every copy back on the
 * dynamic linker's list.  Must run before any other code looks at that list
 * (unwinding through dladdr, dl_iterate_phdr, exit); sched_loader_cleanup
 * and the process's exit do it too when a failure skipped it. */
void sched_images_loaded(void);

/* Ends any unfinished batch (as sched_images_loaded); the copies stay
 * loaded.  Safe to call at any time, also after a failed load. */
void sched_loader_cleanup(void);

/* Whether the shared library at path is a system library, loaded once for
 * all ranks (see the top of this file); false for the user's own. */
bool sched_is_system_library(const char *path);

/* Whether addr is code or data of a rank's copy of one of the program's own
 * libraries (not of the program itself); if so, and path/base are not NULL,
 * sets *path to the library's file (valid for the life of the process) and
 * *base to the copy's load bias. */
bool sched_rank_library_of(const void *addr, const char **path, uintptr_t *base);

#endif
