/*
 * memobj.h - the memory object an address of a rank points into, and the C
 * types inside it, from the rank's heap and the program's debug
 * information.
 *
 * An object is a block of the rank's heap (the bytes the program asked
 * malloc for), a global or static variable of the program (its DWARF:
 * name, type, size, declaration line), or a local variable of a frame that
 * is live at a call (located at the call's PC as the DWARF says, in the
 * frame the call frame information unwinds to; a one-dimensional VLA
 * with the bounds its frame holds at the call, and no C type for its
 * elements).  Memory of anything else (system libraries, the program's own
 * libraries, mmap, alloca, VLAs of more dimensions, compiler temporaries)
 * is no object here: callers do not check it.
 *
 * The program's ELF and DWARF are those every reader of debug information
 * shares (debuginfo.h: read into memory once, no descriptor kept, no
 * mapping made later: in-process snapshots need neither); the variables
 * and unwinding rules of a PC, and the C types, are digested once and
 * cached by file address, so all ranks' copies share them.  Work on the
 * debug information runs on the side stack of symbolize.h.  x86-64 only:
 * elsewhere no local variable is found.
 */
#ifndef ORDEX_SCHED_MEMOBJ_H
#define ORDEX_SCHED_MEMOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A C type, digested from DWARF; owned by the module. */
typedef struct sched_ctype sched_ctype;

typedef enum sched_obj_kind {
    SCHED_OBJ_NONE,   /* not an object this module knows */
    SCHED_OBJ_HEAP,   /* a block of a rank's heap (no C type) */
    SCHED_OBJ_GLOBAL, /* a global or static variable of the program */
    SCHED_OBJ_LOCAL,  /* a local variable or parameter of a live frame */
} sched_obj_kind;

typedef struct sched_obj {
    sched_obj_kind kind;
    uintptr_t start;
    size_t size;
    const char *name;        /* the variable's name; NULL for a heap block */
    const char *file;        /* base name of the declaring file, or NULL */
    int line;                /* its declaration line, 0 when unknown */
    const char *func;        /* a local's function, or NULL */
    const sched_ctype *type; /* NULL: untyped (a heap block, or no usable type) */
    int frame;               /* a local's frame: 0 is the one that made the call */
} sched_obj;

/* Where a rank's pending call was made: the return address into the
 * program, the stack pointer once the call returns, and the frame pointer
 * register (rbp) at the call. */
typedef struct sched_call_point {
    uintptr_t pc, sp, fp;
} sched_call_point;

/* The object of rank's memory that addr points into.  at: the rank's
 * pending call (for its live frames; NULL: locals are not looked for).
 * Heap blocks are those of any rank's arena.  Returns false (out->kind
 * SCHED_OBJ_NONE) when addr is in no object: also for freed heap memory
 * (*freed set then, when freed is not NULL).  Strings live as long as
 * the module. */
bool sched_obj_find(int rank, const sched_call_point *at, uintptr_t addr, sched_obj *out,
                    bool *freed);

/* Whether obj (found by sched_obj_find for the same rank and call point)
 * is still there: a heap block still allocated with the same size; a local
 * whose frame is still the same frame at the same address. */
bool sched_obj_still(int rank, const sched_call_point *at, const sched_obj *obj);

/* Whether the frame that made the call at `at` (the caller of rank's
 * pending MPI call) finds its canonical frame address from its stack
 * pointer, not from rbp: then the same call site with the same stack
 * pointer is the same frame, whatever rbp holds (code built without frame
 * pointers uses rbp as any other register).  False when unknown. */
bool sched_call_point_sp_framed(int rank, const sched_call_point *at);

/* What a C type has at a byte offset. */
typedef enum sched_cclass {
    SCHED_CC_NONE,     /* no typed scalar there (see sched_ctype_at) */
    SCHED_CC_SIGNED,   /* signed integer (int, long, short, long long, wchar_t) */
    SCHED_CC_UNSIGNED, /* unsigned integer */
    SCHED_CC_ENUM,     /* an enumeration: an integer of either signedness */
    SCHED_CC_CHAR,     /* char, signed char, unsigned char (and int8_t, uint8_t) */
    SCHED_CC_FLOAT,    /* float, double, long double */
    SCHED_CC_COMPLEX,  /* _Complex float, double, long double */
    SCHED_CC_BOOL,     /* _Bool */
    SCHED_CC_POINTER,  /* any pointer */
} sched_cclass;

typedef enum sched_ctype_where {
    SCHED_CT_SCALAR,  /* a scalar (out filled) */
    SCHED_CT_UNTYPED, /* inside something not typed: a union, a bit-field, a type
                         without a known layout */
    SCHED_CT_PADDING, /* in a struct's padding, or an array's unused tail */
    SCHED_CT_OUTSIDE, /* past the type's size */
} sched_ctype_where;

typedef struct sched_cscalar {
    sched_cclass cls;
    size_t size;      /* bytes of the scalar */
    size_t start;     /* its offset in the object */
    size_t run_end;   /* scalars of this same type follow one another every `size`
                         bytes from start up to this offset (an array of them) */
    const char *name; /* its type as the program spells it ("int", "uint64_t") */
} sched_cscalar;

/* The scalar of type t that holds byte off.  A char array counts as raw
 * storage: it is untyped (any basic type may be kept in it). */
sched_ctype_where sched_ctype_at(const sched_ctype *t, size_t off, sched_cscalar *out);

/* How the program spells t ("int[1000]", "struct point[4]", "double"). */
const char *sched_ctype_name(const sched_ctype *t);

/* What byte off of an object named `name` of type t is, for reports, as
 * an lvalue: "pts[3].y", "x[12]", or "buf" (g_free). */
char *sched_ctype_path(const sched_ctype *t, const char *name, size_t off);

/* Reads the program's debug information now (its digests still come on
 * demand).  Idempotent. */
void sched_memobj_open(void);

/* Forgets everything read (a new program). */
void sched_memobj_reset(void);

#endif
