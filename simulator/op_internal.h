/*
 * op_internal.h - what op.c (the op table, classifying data, applying) and
 * op_kernel.c (the arithmetic) share: the storage kinds of elements, the
 * indices of the predefined ops, and the kernels.  Private to simulator/:
 * op.h is the module's interface.
 */
#ifndef ORDEX_SIM_OP_INTERNAL_H
#define ORDEX_SIM_OP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* How an element is stored, which decides the C type a kernel works in. */
typedef enum elem_kind {
    EK_NONE,
    EK_I8,
    EK_U8,
    EK_I16,
    EK_U16,
    EK_I32,
    EK_U32,
    EK_I64,
    EK_U64,
    EK_F32,
    EK_F64,
    EK_F80, /* long double */
    EK_F128,
    EK_C32, /* complex of two floats */
    EK_C64,
    EK_C80,
    EK_C128,
    EK_BOOL,    /* C _Bool, C++ bool: one byte */
    EK_LOGICAL, /* Fortran LOGICAL: a four-byte integer */
    EK_BYTE,
    /* value-index pairs for MPI_MAXLOC / MPI_MINLOC */
    EK_P_FLOAT_INT,
    EK_P_DOUBLE_INT,
    EK_P_LONG_INT,
    EK_P_SHORT_INT,
    EK_P_2INT,
    EK_P_LONG_DOUBLE_INT,
    EK_P_2REAL,
    EK_P_2DOUBLE,
} elem_kind;

/* Predefined ops by the index of their MPICH handle. */
enum {
    OPI_MAX = 1,
    OPI_MIN,
    OPI_SUM,
    OPI_PROD,
    OPI_LAND,
    OPI_BAND,
    OPI_LOR,
    OPI_BOR,
    OPI_LXOR,
    OPI_BXOR,
    OPI_MINLOC,
    OPI_MAXLOC,
    OPI_REPLACE,
    OPI_NO_OP,
    OPI_COUNT
};

/* Geometry of a value-index pair: the value's kind, the index's kind, and
 * where the index sits in the C struct of the predefined pair type. */
typedef struct pair_geom {
    elem_kind value, index;
    size_t vsize, isize;
    size_t struct_ioff, struct_size;
} pair_geom;

/* Applies predefined op opi to n elements of kind ek stored contiguously.
 * The (op, kind) pair has been checked against the type classes before. */
void sim_op_kernel(int opi, elem_kind ek, const void *in, void *io, size_t n);

/* MPI_MAXLOC / MPI_MINLOC (MPI 3.1 section 5.9.4) on n pairs placed every
 * `stride` bytes with the index `ioff` bytes after the value.  The larger
 * (smaller) value wins; on equal values the lower index wins.  The winner's
 * bytes are copied, so values are never converted. */
void sim_op_pair_kernel(bool maxloc, const pair_geom *g, const void *in, void *io, size_t n,
                        size_t stride, size_t ioff);

#endif
