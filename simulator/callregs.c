/*
 * callregs.c - the program's callee-saved registers at an MPI call.
 *
 * A program built with optimisation keeps values in callee-saved registers
 * (rbx, rbp, r12-r15 on x86-64) across its MPI calls.  Those values are
 * part of the rank's state just like its stack: two states whose memory is
 * equal but whose registers differ go on differently.  The MPI function's
 * own prologue may already have reused the registers when SIM_ENTER runs, so
 * their values at the call are recovered the way a debugger does, by
 * unwinding to the program's frame with the call frame information.  The
 * same walk gives the canonical frame addresses of that frame and the ones
 * above it, which locate their variables (stategraph/deadvars.h).
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unwind.h>

#include "simulator/sim_internal.h"

#if defined(__x86_64__)
static const int dwarf_regs[SIM_CALL_REGS] = {3, 6, 12, 13, 14, 15}; /* rbx rbp r12-r15 */
#elif defined(__aarch64__)
static const int dwarf_regs[SIM_CALL_REGS] = {19, 20, 21, 22, 23, 24}; /* x19-x24 */
#endif

typedef struct walk {
    uintptr_t caller; /* return address into the program */
    uint64_t *regs;
    sim_call_frames *out;
    bool found;
    int frames;
} walk;

/* The executable segment that holds this file's code: in ordex it is
 * ordex's whole code, which calls the program's main. */
static uintptr_t g_text_lo, g_text_hi;

static int find_text(struct dl_phdr_info *info, size_t size, void *unused) {
    uintptr_t self = (uintptr_t)(void *)sim_capture_call_frame;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && self >= lo &&
            self < lo + ph->p_memsz) {
            g_text_lo = lo;
            g_text_hi = lo + ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

static bool in_ordex(uintptr_t ip) {
    if (!g_text_hi)
        dl_iterate_phdr(find_text, NULL);
    return ip >= g_text_lo && ip < g_text_hi;
}

/* A context pairs a frame's return address (its caller's IP) and the
 * caller's registers with the CFA of the frame itself: the program frame's
 * registers come with the context whose IP is the call's return address,
 * its CFA with the next one, which also holds the next frame's IP. */
static _Unwind_Reason_Code at_frame(struct _Unwind_Context *ctx, void *arg) {
    walk *w = arg;
    sim_call_frames *f = w->out;
    if (w->found) {
        f->cfa[f->n++] = (uintptr_t)_Unwind_GetCFA(ctx);
        uintptr_t ip = (uintptr_t)_Unwind_GetIP(ctx);
        /* ordex's own code (the rank's first frame) calls no program frame
         * that is not already recorded: the walk ends there. */
        if (f->n == SIM_CALL_FRAMES || in_ordex(ip))
            return _URC_NORMAL_STOP;
        f->ip[f->n] = ip;
        return _URC_NO_REASON;
    }
    if (++w->frames > 8) /* the program's frame is the third or so */
        return _URC_NORMAL_STOP;
    if (_Unwind_GetIP(ctx) != w->caller)
        return _URC_NO_REASON;
    for (int i = 0; i < SIM_CALL_REGS; i++)
        w->regs[i] = (uint64_t)_Unwind_GetGR(ctx, dwarf_regs[i]);
    f->ip[0] = w->caller;
    w->found = true;
    return _URC_NO_REASON;
}

void sim_capture_call_frame(void *caller, uint64_t regs[SIM_CALL_REGS], sim_call_frames *frames) {
    walk w = {(uintptr_t)caller, regs, frames, false, 0};
    frames->n = 0;
    _Unwind_Backtrace(at_frame, &w);
    if (!w.found) /* no unwind information: hash nothing rather than noise */
        memset(regs, 0, sizeof(uint64_t) * SIM_CALL_REGS);
}
