// The benchmark's programs for the peer, sentry-native (built by scripts/build-peer.sh, never
// committed): `peer-bench` links it, `peer-bare` (PEER_BARE) is the same program without it, the
// baseline its crash is measured against. The benchmark runs them beside crash-test:
//
//   peer-bench init DIR                 sentry_init with DIR as the database; prints init_ns=N
//                                       and init_cpu_ns=N (the calling thread's CPU time)
//   peer-bench crash DIR BREADCRUMBS    init, BREADCRUMBS breadcrumbs, then a null-pointer write;
//                                       CLOCK_MONOTONIC (ns) goes to descriptor 3 just before it
//   peer-bench breadcrumbs THREADS N    N breadcrumbs on each of THREADS threads at once; prints
//                                       ns_per_record=X (wall time / N, best of three)
//
// The transport does nothing: at a crash sentry-native suspends it and writes the crash's
// envelope into the database instead, as it does with its HTTP transport.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifndef PEER_BARE
#include <sentry.h>
#endif

static uint64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

#ifndef PEER_BARE
static void drop_envelope(sentry_envelope_t *envelope, void *state) {
    (void)state;
    sentry_envelope_free(envelope);
}

static void start_sentry(const char *dir) {
    sentry_options_t *options = sentry_options_new();
    sentry_options_set_dsn(options, "http://public@127.0.0.1:9/1");
    sentry_options_set_database_path(options, dir);
    sentry_options_set_release(options, "peer-bench@1.0");
    sentry_options_set_transport(options, sentry_transport_new(drop_envelope));
    if (sentry_init(options) != 0) {
        fprintf(stderr, "sentry_init failed\n");
        exit(1);
    }
}

static void record(int i) {
    char index[16];
    snprintf(index, sizeof index, "%d", i);
    sentry_value_t crumb = sentry_value_new_breadcrumb("default", "checkout.step");
    sentry_value_set_by_key(crumb, "category", sentry_value_new_string("bench"));
    sentry_value_t data = sentry_value_new_object();
    sentry_value_set_by_key(data, "index", sentry_value_new_string(index));
    sentry_value_set_by_key(crumb, "data", data);
    sentry_add_breadcrumb(crumb);
}

static long per_thread;

static void *record_many(void *unused) {
    (void)unused;
    for (long i = 0; i < per_thread; i++) record((int)(i % 100));
    return NULL;
}

static double measure(int threads) {
    pthread_t ids[64];
    uint64_t began = now_ns();
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, record_many, NULL);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    return (double)(now_ns() - began) / (double)per_thread;
}
#endif

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: peer-bench init DIR | crash DIR BREADCRUMBS | breadcrumbs THREADS N\n");
        return 64;
    }
    const char *mode = argv[1];
    if (strcmp(mode, "crash") == 0 && argc == 4) {
#ifndef PEER_BARE
        start_sentry(argv[2]);
        int breadcrumbs = atoi(argv[3]);
        for (int i = 0; i < breadcrumbs; i++) record(i);
#endif
        uint64_t faulted = now_ns();
        if (write(3, &faulted, sizeof faulted) != (ssize_t)sizeof faulted) return 1;
        *(volatile int *)(uintptr_t)8 = 1;
        return 2;
    }
#ifndef PEER_BARE
    if (strcmp(mode, "init") == 0) {
        uint64_t began = now_ns();
        uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
        start_sentry(argv[2]);
        uint64_t took = now_ns() - began;
        printf("init_ns=%llu init_cpu_ns=%llu\n", (unsigned long long)took,
               (unsigned long long)(clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu));
        sentry_close();
        return 0;
    }
    if (strcmp(mode, "breadcrumbs") == 0 && argc == 4) {
        char dir[] = "/tmp/peer-bench-XXXXXX";
        if (mkdtemp(dir) == NULL) return 1;
        start_sentry(dir);
        int threads = atoi(argv[2]);
        per_thread = atol(argv[3]);
        if (threads < 1 || threads > 64 || per_thread < 1) return 64;
        measure(1); // warm up
        double best = measure(threads);
        for (int i = 0; i < 2; i++) {
            double again = measure(threads);
            if (again < best) best = again;
        }
        printf("ns_per_record=%.1f\n", best);
        sentry_close();
        return 0;
    }
#endif
    fprintf(stderr, "unknown mode %s\n", mode);
    return 64;
}
