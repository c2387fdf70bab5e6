/*
 * handle.h - the layout of the MPI handles that ordex hands out.
 *
 * Handles follow MPICH's layout so programs compiled against MPICH's mpi.h
 * see familiar values: bits 31-30 kind (1 builtin, 2 direct), bits 29-26
 * object kind, low bits an index.  Objects made by ordex use kind 2 and the
 * index into the simulator's table for that object kind.
 *
 * This header is separate from sim_internal.h so that the pure
 * data-structure modules (datatype, op, ...) can build and be unit-tested
 * without the simulator core.
 */
#ifndef ORDEX_SIM_HANDLE_H
#define ORDEX_SIM_HANDLE_H

enum {
    SIM_HKIND_BUILTIN = 1,
    SIM_HKIND_DIRECT = 2,
};
enum {
    SIM_OBJ_COMM = 0x1,
    SIM_OBJ_GROUP = 0x2,
    SIM_OBJ_DATATYPE = 0x3,
    SIM_OBJ_ERRHANDLER = 0x5,
    SIM_OBJ_OP = 0x6,
    SIM_OBJ_INFO = 0x7,
    SIM_OBJ_WIN = 0x8,    /* one-sided communication windows (MPI_WIN_NULL is 0x20000000) */
    SIM_OBJ_KEYVAL = 0x9, /* attribute keys (MPI_KEYVAL_INVALID is 0x24000000) */
    SIM_OBJ_REQUEST = 0xb,
    SIM_OBJ_MESSAGE = 0xf, /* matched message handles of MPI_Mprobe */
};
#define SIM_HANDLE(kind, obj, index)                                                               \
    ((int)(((unsigned)(kind) << 30) | ((unsigned)(obj) << 26) | (unsigned)(index)))
#define SIM_HANDLE_KIND(h) (((unsigned)(h) >> 30) & 0x3u)
#define SIM_HANDLE_OBJ(h) (((unsigned)(h) >> 26) & 0xfu)
#define SIM_HANDLE_INDEX(h) ((unsigned)(h)&0x03ffffffu)

#endif
