/*
 * dlsym_program.c - a program that looks functions up at run time, so that
 * it might reach MPI_Cancel without naming it in its symbol table.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

int ordex_program_abi = 1;

int main(void) {
    return dlsym(RTLD_DEFAULT, "MPI_Cancel") != 0;
}
