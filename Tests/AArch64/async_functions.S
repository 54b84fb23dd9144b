// Two functions that fault while they run "async code" the way Swift lays it out on arm64
// (docs/async-capture.md): the async context in x22, and the frame record an async function
// keeps, [fp] = the caller's fp, [fp + 8] = the return address, [fp - 8] = its async context,
// fp = CFA - 16. The crash driver (crash_driver.c) calls them with a context chain laid out in
// memory and the address to fault on; neither returns (the load faults and the process ends).
    .text

// void scr_test_async_frame_record(void *context, const void *fault_address)
// A frame of the Swift shape; x22 is cleared first, so that only the frame record holds the context.
    .globl scr_test_async_frame_record
    .type scr_test_async_frame_record, %function
    .p2align 2
scr_test_async_frame_record:
    .cfi_startproc
    sub sp, sp, #48
    .cfi_def_cfa_offset 48
    stp x29, x30, [sp, #32]
    str x0, [sp, #24]          // the async context, at fp - 8
    str x22, [sp, #0]          // callee-saved for the C caller
    add x29, sp, #32
    .cfi_def_cfa w29, 16
    .cfi_offset w30, -8
    .cfi_offset w29, -16
    .cfi_offset w22, -48
    mov x22, xzr
    ldr x2, [x1]               // the fault
    ldr x22, [sp, #0]
    ldp x29, x30, [sp, #32]
    add sp, sp, #48
    .cfi_def_cfa sp, 0
    ret
    .cfi_endproc
    .size scr_test_async_frame_record, . - scr_test_async_frame_record

// void scr_test_async_register_leaf(void *context, const void *fault_address)
// A leaf without a frame (a partial function at -O): the context is in x22 only.
    .globl scr_test_async_register_leaf
    .type scr_test_async_register_leaf, %function
    .p2align 2
scr_test_async_register_leaf:
    .cfi_startproc
    mov x22, x0
    ldr x2, [x1]               // the fault; x22 is not restored, since this never returns
    ret
    .cfi_endproc
    .size scr_test_async_register_leaf, . - scr_test_async_register_leaf

    .section .note.GNU-stack, "", %progbits
