// Registers of an interrupted thread, read from the signal's ucontext: written straight into the
// report for the crashing thread, saved into a thread slot (threads.c) for the others.
// Async-signal-safe: only reads the context the kernel put on the signal stack.
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

#define SCR_REGISTER_NAMES (sizeof k_registers / sizeof k_registers[0])

// Async-signal-safe.
void scr_registers_save(const void *ucontext, scr_registers *out) {
    const ucontext_t *uc = ucontext;
    for (size_t i = 0; i < SCR_REGISTER_NAMES; i++) out->values[i] = (uint64_t)uc->uc_mcontext.gregs[k_registers[i].index];
}

// Async-signal-safe.
static const char *register_name(size_t i, char scratch[4]) {
    (void)scratch;
    return k_registers[i].name;
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
#define SCR_REGISTER_NAMES 34

// Async-signal-safe.
void scr_registers_save(const void *ucontext, scr_registers *out) {
    const ucontext_t *uc = ucontext;
    for (int i = 0; i < 31; i++) out->values[i] = uc->uc_mcontext.regs[i];
    out->values[31] = uc->uc_mcontext.sp;
    out->values[32] = uc->uc_mcontext.pc;
    out->values[33] = uc->uc_mcontext.pstate;
}

// Async-signal-safe. x0..x30, then sp, pc, pstate.
static const char *register_name(size_t i, char scratch[4]) {
    if (i == 31) return "sp";
    if (i == 32) return "pc";
    if (i == 33) return "pstate";
    scratch[0] = 'x';
    scratch[1] = (char)(i < 10 ? '0' + i : '0' + i / 10);
    scratch[2] = (char)(i < 10 ? 0 : '0' + i % 10);
    scratch[3] = 0;
    return scratch;
}

// Async-signal-safe.
uintptr_t scr_context_ip(const void *ucontext) { return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.pc; }

// Async-signal-safe.
uintptr_t scr_context_sp(const void *ucontext) { return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.sp; }
#else
#error "unsupported architecture"
#endif

// Async-signal-safe: writer calls only.
void scr_registers_write_saved(scr_writer *w, const scr_registers *registers) {
    char scratch[4];
    scr_json_object_begin(w);
    for (size_t i = 0; i < SCR_REGISTER_NAMES; i++) {
        scr_json_key(w, register_name(i, scratch));
        scr_json_hex(w, registers->values[i]);
    }
    scr_json_object_end(w);
}

// Async-signal-safe.
void scr_registers_write_json(scr_writer *w, const void *ucontext) {
    scr_registers registers;
    scr_registers_save(ucontext, &registers);
    scr_registers_write_saved(w, &registers);
}
