// A library that `crash-test dlopen-crash PATH` loads after the crash reporter started, to
// show that the frames of an image opened later resolve. The tests build it with
// `cc -shared -fPIC -g -o libcrashlibrary.so crash_library.c`.

__attribute__((noinline)) static int crash_library_fault(volatile int *target) {
    *target = 42; // target is 0x10: SIGSEGV inside this library
    return *target;
}

__attribute__((visibility("default"), noinline)) int crash_library_entry(void) {
    return crash_library_fault((volatile int *)(unsigned long)16) + 1;
}
