/*
 * loader.h - one loaded copy of the program per rank.
 *
 * Each rank gets its own copy of the program's shared object, so its
 * globals (.data, .bss) are its own, exactly as in separate processes.  The
 * dynamic linker treats files with different inodes as different objects, so
 * every rank loads a private in-memory copy (memfd) of the file's loadable
 * part; debug information stays in the original file, which is what
 * symbolisation reads.
 */
#ifndef ORDEX_SCHED_LOADER_H
#define ORDEX_SCHED_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int (*sched_main_fn)(int, char **);

typedef struct sched_image {
    void *handle;       /* dlopen handle */
    uintptr_t base;     /* load bias: address = base + file virtual address */
    sched_main_fn main; /* the program's main */
    /* The copy's writable segments (.data, .bss, ...): the rank's globals. */
    uintptr_t rw_start[4];
    size_t rw_len[4];
    int n_rw;
} sched_image;

/* Marker symbol that ordexcc links into every program it builds. */
#define SCHED_PROGRAM_MARKER "ordex_program_abi"
#define SCHED_PROGRAM_ABI "ordex-program-1"

/* Checks that path is a program built by ordexcc.  On failure returns false
 * and sets *err (g_free) to one line naming the file and the problem. */
bool sched_program_check(const char *path, char **err);

/* Loads a private copy of the program at path.  keep_files: load from a
 * real file (complete, with debug info) instead of memory, for debuggers.
 * On failure returns false with *err set. */
bool sched_image_load(const char *path, bool keep_files, sched_image *img, char **err);

/* Must follow a batch of sched_image_load calls before any other code runs
 * (it restores the dynamic linker's list of objects; see loader.c). */
void sched_images_loaded(void);

/* Removes the temporary files of loaded copies (the copies stay loaded). */
void sched_loader_cleanup(void);

#endif
