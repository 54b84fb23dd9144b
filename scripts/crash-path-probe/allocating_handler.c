// The probe's own test (Tests/IntegrationTests/CrashPathProbeTests.swift): a program whose
// crash path does what the reporter's must not, so that the probe is seen to catch it.
//   cc -O0 -o allocating_handler allocating_handler.c -lpthread
//   allocating_handler altstack   a SIGSEGV handler on the alternate stack calls malloc, free
//                                 and pthread_mutex_lock, then the process dies of SIGSEGV
//   allocating_handler writer     the thread that says it writes a report (the reporter's
//                                 test hook, defined here) calls malloc on its normal stack
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int g_writer;

// The hook the probe looks up in the symbol table, as the reporter's C core defines it.
__attribute__((noinline, used)) int scr_debug_report_writer(void) { return g_writer; }

// Not async-signal-safe, on purpose.
static void allocating_handler(int sig) {
    void *volatile p = malloc(64);
    free(p);
    pthread_mutex_lock(&g_lock);
    pthread_mutex_unlock(&g_lock);
    signal(sig, SIG_DFL); // returning repeats the fault, which now ends the process
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "writer") == 0) {
        g_writer = (int)syscall(SYS_gettid);
        void *volatile p = malloc(64);
        g_writer = 0;
        free(p);
        return 0;
    }
    static char stack[64 * 1024];
    stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack};
    sigaltstack(&ss, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = allocating_handler;
    action.sa_flags = SA_ONSTACK;
    sigaction(SIGSEGV, &action, NULL);
    *(volatile int *)(uintptr_t)16 = 1;
    return 1;
}
