// Registers of the crashing thread, read from the signal's ucontext. Async-signal-safe:
// only reads the context the kernel put on the signal stack.
#include "internal.h"

#include <ucontext.h>

#if defined(__x86_64__)
static const struct {
    const char *name;
    int index;
} k_registers[] = {
    {"rax", REG_RAX}, {"rbx", REG_RBX}, {"rcx", REG_RCX}, {"rdx", REG_RDX}, {"rsi", REG_RSI},
    {"rdi", REG_RDI}, {"rbp", REG_RBP}, {"rsp", REG_RSP}, {"r8", REG_R8},   {"r9", REG_R9},
    {"r10", REG_R10}, {"r11", REG_R11}, {"r12", REG_R12}, {"r13", REG_R13}, {"r14", REG_R14},
    {"r15", REG_R15}, {"rip", REG_RIP}, {"eflags", REG_EFL},
};

// Async-signal-safe.
void scr_registers_write_json(scr_writer *w, const void *ucontext) {
    const ucontext_t *uc = ucontext;
    scr_json_object_begin(w);
    for (size_t i = 0; i < sizeof k_registers / sizeof k_registers[0]; i++) {
        scr_json_key(w, k_registers[i].name);
        scr_json_hex(w, (uint64_t)uc->uc_mcontext.gregs[k_registers[i].index]);
    }
    scr_json_object_end(w);
}

// Async-signal-safe.
uintptr_t scr_context_ip(const void *ucontext) {
    return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.gregs[REG_RIP];
}

// Async-signal-safe.
uintptr_t scr_context_sp(const void *ucontext) {
    return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.gregs[REG_RSP];
}

#elif defined(__aarch64__)
// Async-signal-safe.
void scr_registers_write_json(scr_writer *w, const void *ucontext) {
    const ucontext_t *uc = ucontext;
    scr_json_object_begin(w);
    for (int i = 0; i < 31; i++) {
        char name[4] = {'x', 0, 0, 0};
        if (i < 10) {
            name[1] = (char)('0' + i);
        } else {
            name[1] = (char)('0' + i / 10);
            name[2] = (char)('0' + i % 10);
        }
        scr_json_key(w, name);
        scr_json_hex(w, uc->uc_mcontext.regs[i]);
    }
    scr_json_key(w, "sp");
    scr_json_hex(w, uc->uc_mcontext.sp);
    scr_json_key(w, "pc");
    scr_json_hex(w, uc->uc_mcontext.pc);
    scr_json_key(w, "pstate");
    scr_json_hex(w, uc->uc_mcontext.pstate);
    scr_json_object_end(w);
}

// Async-signal-safe.
uintptr_t scr_context_ip(const void *ucontext) { return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.pc; }

// Async-signal-safe.
uintptr_t scr_context_sp(const void *ucontext) { return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.sp; }
#else
#error "unsupported architecture"
#endif
