/*
 * stub.h - what the generated stubs of the MPI functions ordex does not
 * implement call (see gen_stubs.sh).  No MPI header here: the stubs define
 * the functions with a signature of their own.
 */
#ifndef ORDEX_SIM_STUB_H
#define ORDEX_SIM_STUB_H

/* From rank code, in place of the MPI function fname that ordex does not
 * implement: records a finding of kind SIM_F_UNSUPPORTED located at the
 * call that returns to caller ("the program calls MPI_File_open, which ordex
 * does not implement") and stops the run as MPI_Abort does.  frame is the
 * stub's frame address (as for sim_call_enter).  Never returns. */
_Noreturn void sim_unsupported_call(const char *fname, void *caller, void *frame);

#endif
