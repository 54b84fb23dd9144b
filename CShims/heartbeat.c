// Heartbeats: named counters a service ticks from what must stay responsive (an event loop, a
// job queue). The monitor thread (monitor.c) reads them; one that has not moved for the stall
// timeout is a hang, reported once per stall.
//
// A tick is one relaxed load and store of the counter (one writer is expected; should two
// threads tick one heartbeat, a lost increment still moves it) and a comparison of the calling
// thread's identity with the one that ticked last: only when the ticking thread changes does
// it ask the kernel for its id, so that a hang report names the thread that stopped ticking.
// The identity is the address of a thread-local byte (initial-exec: one instruction away from
// the thread pointer, no call).
#include "internal.h"

#include <string.h>

#define SCR_MAX_HEARTBEATS 64

// Its address tells threads apart.
static __thread char t_identity __attribute__((tls_model("initial-exec")));

typedef struct scr_heartbeat {
    _Atomic uint64_t ticks;
    _Atomic uintptr_t owner;
    _Atomic pid_t tid;
    _Atomic int used;
    char name[64];
    // The monitor's view, touched by the monitor thread only.
    uint64_t seen_ticks;
    uint64_t seen_ms;
    bool reported;
} scr_heartbeat;

static scr_heartbeat g_heartbeats[SCR_MAX_HEARTBEATS];
static _Atomic int g_heartbeat_count; // highest index in use + 1

// Not async-signal-safe by intent (a service calls it while setting up), though it only uses
// atomics. Returns the heartbeat's index, or -1 when all are taken. scr_heartbeat_register
// (monitor.c) calls it and wakes the monitor, which then starts watching.
int scr_heartbeats_add(const char *name) {
    for (int i = 0; i < SCR_MAX_HEARTBEATS; i++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&g_heartbeats[i].used, &expected, 2)) continue; // 2: being set up
        scr_heartbeat *h = &g_heartbeats[i];
        scr_strlcpy(h->name, name != NULL ? name : "", sizeof h->name);
        atomic_store(&h->owner, (uintptr_t)&t_identity);
        atomic_store(&h->tid, scr_gettid());
        atomic_store(&h->ticks, 0);
        h->seen_ticks = UINT64_MAX; // the monitor starts the clock when it first looks
        h->reported = false;
        atomic_store(&h->used, 1);
        int count = atomic_load(&g_heartbeat_count);
        while (count < i + 1 && !atomic_compare_exchange_weak(&g_heartbeat_count, &count, i + 1)) {
        }
        return i;
    }
    return -1;
}

// Async-signal-safe, wait-free.
void scr_heartbeat_tick(int index) {
    if ((unsigned)index >= SCR_MAX_HEARTBEATS) return;
    scr_heartbeat *h = &g_heartbeats[index];
    uintptr_t self = (uintptr_t)&t_identity;
    if (atomic_load_explicit(&h->owner, memory_order_relaxed) != self) {
        atomic_store_explicit(&h->owner, self, memory_order_relaxed);
        atomic_store_explicit(&h->tid, scr_gettid(), memory_order_relaxed);
    }
    uint64_t ticks = atomic_load_explicit(&h->ticks, memory_order_relaxed);
    atomic_store_explicit(&h->ticks, ticks + 1, memory_order_relaxed);
}

// Async-signal-safe (atomics only).
void scr_heartbeat_unregister(int index) {
    if ((unsigned)index >= SCR_MAX_HEARTBEATS) return;
    int expected = 1;
    atomic_compare_exchange_strong(&g_heartbeats[index].used, &expected, 0);
}

// Async-signal-safe.
bool scr_heartbeats_active(void) {
    int count = atomic_load(&g_heartbeat_count);
    for (int i = 0; i < count; i++) {
        if (atomic_load(&g_heartbeats[i].used) == 1) return true;
    }
    return false;
}

// Async-signal-safe (atomics, a bounded copy); the monitor thread's alone.
bool scr_heartbeats_find_late(uint64_t now_ms, uint64_t timeout_ms, scr_late_heartbeat *late) {
    int count = atomic_load(&g_heartbeat_count);
    for (int i = 0; i < count; i++) {
        scr_heartbeat *h = &g_heartbeats[i];
        if (atomic_load(&h->used) != 1) continue;
        uint64_t ticks = atomic_load_explicit(&h->ticks, memory_order_relaxed);
        if (ticks != h->seen_ticks) {
            h->seen_ticks = ticks;
            h->seen_ms = now_ms;
            h->reported = false; // moving again: a later stall is a new one
            continue;
        }
        if (h->reported || now_ms - h->seen_ms < timeout_ms) continue;
        h->reported = true;
        scr_strlcpy(late->name, h->name, sizeof late->name);
        late->tid = atomic_load_explicit(&h->tid, memory_order_relaxed);
        late->late_ms = now_ms - h->seen_ms;
        return true;
    }
    return false;
}
