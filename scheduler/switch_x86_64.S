/*
 * Context switch for x86-64 (System V ABI).  Only callee-saved state needs
 * saving: rbx, rbp, r12-r15, the stack pointer, and the SSE and x87 control
 * words.
 *
 *   void sched_ctx_switch_sp(void **save_sp, void *new_sp);
 */
    .text
    .globl sched_ctx_switch_sp
    .type sched_ctx_switch_sp, @function
sched_ctx_switch_sp:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size sched_ctx_switch_sp, .-sched_ctx_switch_sp

/* First code run by a new context: fn(arg) with fn in r13 and arg in r12.
 * The stack is 16-byte aligned here, as the call requires.  fn never returns. */
    .globl sched_ctx_start
    .type sched_ctx_start, @function
sched_ctx_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    callq *%r13
    ud2
    .cfi_endproc
    .size sched_ctx_start, .-sched_ctx_start

    .section .note.GNU-stack,"",@progbits
