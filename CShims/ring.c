// The breadcrumb ring: fixed slots in memory reserved once, in a few shards, each claimed by an
// atomic ticket of its own.
//
// A thread writes into one shard (given round-robin at its first breadcrumb and kept), so that two
// threads recording at once do not fight over one ticket's cache line. A producer stamps the
// breadcrumb with the CPU's constant-rate counter, takes ticket n of its shard with one fetch_add
// (wait-free: no loop, no lock), marks slot n % size of the shard as "being written by n" (sequence
// 2n+1) and copies its fields (scr_ring_begin), then its data pairs one by one (scr_ring_add_pair:
// the caller scrubs each value on the way, and packs nothing), and publishes the slot with sequence
// 2n+2 (scr_ring_publish). The reader (the signal handler, or a test) keeps the newest `capacity`
// breadcrumbs over all shards by their stamps and writes them oldest first: within a shard in
// ticket order, across shards by stamp. A slot counts only if its sequence is 2n+2 before and after
// the copy, otherwise it is "torn" (a writer was inside it, or a later lap overwrote it) and is
// left out and counted. Each shard holds `capacity` slots rounded up to a power of two (the index
// is a mask, not a division), so that one busy thread alone still leaves the newest `capacity`. The
// stamp becomes wall-clock time only when the ring is read: the ring notes the counter and
// CLOCK_REALTIME when it is made, the reader notes both again, and each stamp falls in between (no
// clock read when recording).
// The process has one global ring (the one the handler writes out); tests make their own.
//
// ThreadSanitizer. The slot's fields are written and copied while another thread may be inside the
// same bytes (the reader, or a producer a whole ring ahead): that is the design, and the sequence
// number tells a torn copy from a whole one. ThreadSanitizer cannot know it and reports the
// accesses as races, so the functions that touch the fields, fill_slot, scr_ring_add_pair,
// scr_ring_publish, copy_slot and peek_stamp, are left out of its instrumentation; every atomic
// around them (ticket, sequence, fences) is still checked. Under ThreadSanitizer they copy with a
// loop the compiler may not turn into a memcpy call, because ThreadSanitizer intercepts memcpy
// itself, whatever the caller's attributes; elsewhere they use memcpy, which is faster.
// ThreadSanitizer ignores the two fences (GCC says so with -Wtsan): harmless here, since the
// accesses they order are exactly the uninstrumented ones.
#include "internal.h"

#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef struct scr_pair {
    uint8_t key_len;
    uint8_t value_len;
    char key[SCR_KEY_MAX];
    char value[SCR_VALUE_MAX];
} scr_pair;

// Aligned to a cache line so that two producers writing neighbouring slots never share one.
typedef struct __attribute__((aligned(64))) scr_slot {
    _Atomic uint64_t seq;
    uint64_t stamp; // read_stamp() when recorded
    uint8_t level;
    uint8_t category_len;
    uint8_t message_len;
    uint8_t pair_count;
    char category[SCR_CATEGORY_MAX];
    char message[SCR_MESSAGE_MAX];
    scr_pair pairs[SCR_MAX_PAIRS];
} scr_slot;

_Static_assert(sizeof(scr_slot) % 64 == 0, "slots fill whole cache lines");
_Static_assert(offsetof(scr_slot, pair_count) < offsetof(scr_slot, category), "copy_slot copies the fixed fields as one run");
_Static_assert(offsetof(scr_pair, value_len) == offsetof(scr_pair, key_len) + 1, "copy_slot copies a pair's lengths together");
_Static_assert(SCR_CATEGORY_MAX < 256 && SCR_MESSAGE_MAX < 256 && SCR_KEY_MAX < 256 && SCR_VALUE_MAX < 256,
               "field lengths are stored in one byte");

// The CPU's counter (read_stamp) and CLOCK_REALTIME, read together.
typedef struct scr_clock_pair {
    uint64_t stamp, wall_ns;
} scr_clock_pair;

// One shard's next ticket, on a cache line of its own.
typedef struct __attribute__((aligned(64))) scr_shard {
    _Atomic uint64_t next;
} scr_shard;

struct scr_ring {
    scr_shard shards[SCR_RING_SHARDS];
    scr_slot *slots;         // SCR_RING_SHARDS runs of mask + 1 slots, shard by shard
    uint64_t mask;           // a shard's slot count - 1
    uint32_t capacity;       // newest N kept, over all shards
    size_t mapped;           // bytes of the mapping holding this header and the slots
    scr_clock_pair made;     // when the ring was made
};

_Static_assert((SCR_RING_SHARDS & (SCR_RING_SHARDS - 1)) == 0, "the shard is a mask of the thread's number");

// Async-signal-safe: one instruction on x86-64 (the time-stamp counter, constant-rate on every
// CPU the kernel calls tsc-stable) and on arm64 (the generic timer's virtual count); a vDSO clock
// read elsewhere. Ordered across threads as well as the counter is synchronised across cores.
static inline uint64_t read_stamp(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    uint64_t count;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(count));
    return count;
#else
    return scr_now_monotonic_ns();
#endif
}

// Async-signal-safe (clock_gettime).
static scr_clock_pair clock_now(void) { return (scr_clock_pair){read_stamp(), scr_now_realtime_ns()}; }

// The calling thread's shard number plus one; 0 until its first breadcrumb. Initial-exec: a plain
// load from the thread pointer, no call that could allocate.
static _Thread_local uint32_t t_shard __attribute__((tls_model("initial-exec")));
static _Atomic uint32_t g_threads_seen;

// Async-signal-safe (an atomic, a thread-local). The calling thread's shard: given round-robin
// at its first breadcrumb, then kept, so that its breadcrumbs stay in ticket order.
static inline uint32_t thread_shard(void) {
    uint32_t shard = t_shard;
    if (shard == 0) {
        shard = atomic_fetch_add_explicit(&g_threads_seen, 1, memory_order_relaxed) % SCR_RING_SHARDS + 1;
        t_shard = shard;
    }
    return shard - 1;
}

// The ring the handler writes out. Replaced only by install (and tests); a replaced ring stays
// mapped because a producer may still be inside it.
static _Atomic(scr_ring *) g_global_ring;

// Async-signal-safe.
uint32_t scr_breadcrumb_shard(void) { return thread_shard(); }

// Not async-signal-safe (mmap). One mapping holds the header and the slots; a page is touched
// only when a breadcrumb is written into it.
scr_ring *scr_ring_create(uint32_t capacity) {
    if (capacity > SCR_MAX_BREADCRUMBS) return NULL;
    uint64_t size = 1;
    while (size < capacity) size <<= 1;
    size_t header = (sizeof(scr_ring) + 63u) & ~(size_t)63u;
    size_t bytes = header + (capacity == 0 ? 0 : (size_t)SCR_RING_SHARDS * size * sizeof(scr_slot));
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) return NULL;
    scr_ring *ring = mem;
    for (int s = 0; s < SCR_RING_SHARDS; s++) atomic_init(&ring->shards[s].next, 0);
    ring->slots = capacity == 0 ? NULL : (scr_slot *)((char *)mem + header);
    ring->mask = size - 1;
    ring->capacity = capacity;
    ring->mapped = bytes;
    ring->made = clock_now();
    return ring;
}

// Async-signal-safe. Slot `n` of shard `shard`.
static inline scr_slot *slot_of(const scr_ring *ring, uint32_t shard, uint64_t n) {
    return &ring->slots[(uint64_t)shard * (ring->mask + 1) + (n & ring->mask)];
}

// Not async-signal-safe (munmap). The caller guarantees that no thread records into it.
void scr_ring_destroy(scr_ring *ring) {
    if (ring != NULL) munmap(ring, ring->mapped);
}

// Not async-signal-safe (mmap). Install calls it once; tests and benchmarks again.
int scr_breadcrumbs_configure(uint32_t capacity) {
    scr_ring *ring = scr_ring_create(capacity);
    if (ring == NULL) return -1;
    atomic_store_explicit(&g_global_ring, ring, memory_order_release);
    return 0;
}

// Async-signal-safe.
scr_ring *scr_global_ring(void) { return atomic_load_explicit(&g_global_ring, memory_order_acquire); }

// Async-signal-safe.
int scr_breadcrumbs_enabled(void) {
    scr_ring *ring = scr_global_ring();
    return ring != NULL && ring->slots != NULL && scr_capture_enabled();
}

// Async-signal-safe.
size_t scr_ring_reserved_bytes(void) {
    scr_ring *ring = scr_global_ring();
    return ring == NULL ? 0 : ring->mapped;
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SCR_THREAD_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SCR_THREAD_SANITIZER 1
#endif

// The seqlock's data accesses (see the top). Under ThreadSanitizer they also copy without
// memcpy calls (clang: no_builtin; GCC: no loop-to-memcpy transformation); otherwise memcpy
// is the faster copy and no_sanitize changes nothing.
#if defined(SCR_THREAD_SANITIZER) && defined(__clang__)
#define SCR_SEQLOCK_DATA __attribute__((no_sanitize("thread"), no_builtin("memcpy")))
#elif defined(SCR_THREAD_SANITIZER)
#define SCR_SEQLOCK_DATA __attribute__((no_sanitize("thread"), optimize("no-tree-loop-distribute-patterns")))
#else
#define SCR_SEQLOCK_DATA __attribute__((no_sanitize("thread")))
#endif

// Async-signal-safe. `n` bytes from `src` to `dst`, where another thread may be reading or
// writing `dst`, or writing `src`. Only called from the SCR_SEQLOCK_DATA functions, into
// which it is inlined (it shares their attributes).
SCR_SEQLOCK_DATA static inline void copy_racy(char *dst, const char *src, size_t n) {
#if defined(SCR_THREAD_SANITIZER)
    for (size_t i = 0; i < n; i++) dst[i] = src[i];
#else
    // Most fields are a few bytes: two overlapping fixed-size copies, inline, instead of a call
    // to memcpy (which costs more than the copy at these sizes). Each reads only src[0..<n].
    if (n >= 16) {
        memcpy(dst, src, n);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, src, 8);
        memcpy(&tail, src + n - 8, 8);
        memcpy(dst, &head, 8);
        memcpy(dst + n - 8, &tail, 8);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, src, 4);
        memcpy(&tail, src + n - 4, 4);
        memcpy(dst, &head, 4);
        memcpy(dst + n - 4, &tail, 4);
    } else {
        for (size_t i = 0; i < n; i++) dst[i] = src[i];
    }
#endif
}

// Async-signal-safe, wait-free. Writes a breadcrumb's fixed fields into `slot`, which its
// producer has marked as being written; strings are cut to their bounds.
SCR_SEQLOCK_DATA static void fill_slot(scr_slot *slot, uint64_t stamp, uint8_t level, const char *category,
                                       size_t category_len, const char *message, size_t message_len) {
    slot->stamp = stamp;
    slot->level = level;
    size_t c = scr_utf8_cut(category, category == NULL ? 0 : category_len, SCR_CATEGORY_MAX);
    copy_racy(slot->category, category, c);
    slot->category_len = (uint8_t)c;
    scr_fault_if_injected(SCR_FAULT_IN_RECORD); // a test's crash in the middle of a record
    size_t m = scr_utf8_cut(message, message == NULL ? 0 : message_len, SCR_MESSAGE_MAX);
    copy_racy(slot->message, message, m);
    slot->message_len = (uint8_t)m;
}

// Async-signal-safe, wait-free, no allocation. Claims the next slot of the calling thread's shard,
// marks it as being written and fills in all but the pairs; a claim without a slot when `ring`
// has none.
scr_ring_claim scr_ring_begin(scr_ring *ring, uint8_t level, const char *category, size_t category_len,
                              const char *message, size_t message_len) {
    if (ring == NULL || ring->slots == NULL) return (scr_ring_claim){NULL, 0};
    uint32_t shard = thread_shard();
    // Stamped before the ticket: within a shard a later ticket never has an earlier stamp from
    // the same thread.
    uint64_t stamp = read_stamp();
    uint64_t n = atomic_fetch_add_explicit(&ring->shards[shard].next, 1, memory_order_relaxed);
    scr_slot *slot = slot_of(ring, shard, n);
    atomic_store_explicit(&slot->seq, 2 * n + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release); // the odd mark is seen before any field changes
    fill_slot(slot, stamp, level, category, category_len, message, message_len);
    return (scr_ring_claim){slot, n};
}

// Async-signal-safe, wait-free. Writes pair `index` (below SCR_MAX_PAIRS, else nothing) of the
// claimed `slot`, each string cut to its bound on a character boundary.
SCR_SEQLOCK_DATA void scr_ring_add_pair(scr_slot *slot, uint8_t index, const char *key, size_t key_len,
                                        const char *value, size_t value_len) {
    if (slot == NULL || index >= SCR_MAX_PAIRS) return;
    scr_pair *pair = &slot->pairs[index];
    size_t k = scr_utf8_cut(key, key == NULL ? 0 : key_len, SCR_KEY_MAX);
    size_t v = scr_utf8_cut(value, value == NULL ? 0 : value_len, SCR_VALUE_MAX);
    copy_racy(pair->key, key, k);
    copy_racy(pair->value, value, v);
    pair->key_len = (uint8_t)k;
    pair->value_len = (uint8_t)v;
}

// Async-signal-safe, wait-free. Publishes the claimed slot with its first `pair_count` pairs.
SCR_SEQLOCK_DATA void scr_ring_publish(scr_ring_claim claim, uint8_t pair_count) {
    if (claim.slot == NULL) return;
    claim.slot->pair_count = pair_count <= SCR_MAX_PAIRS ? pair_count : SCR_MAX_PAIRS;
    atomic_store_explicit(&claim.slot->seq, 2 * claim.ticket + 2, memory_order_release);
}

// Async-signal-safe, wait-free: a claim in the global ring, unless capture is off.
scr_ring_claim scr_breadcrumb_begin(uint8_t level, const char *category, size_t category_len, const char *message,
                                    size_t message_len) {
    if (!scr_capture_enabled()) return (scr_ring_claim){NULL, 0};
    return scr_ring_begin(scr_global_ring(), level, category, category_len, message, message_len);
}

// Async-signal-safe: a table lookup.
static const char *level_name(uint8_t level) {
    static const char *const names[] = {"debug", "info", "warning", "error", "fatal"};
    return level < 5 ? names[level] : "info";
}

// Async-signal-safe. Copies the fields of `slot` (all but its sequence) into `copy`, while
// a producer may be writing them: the fixed fields first, then only the bytes their lengths
// say are used (a slot is 704 bytes, a breadcrumb often 40: at a crash the ring is cold, and
// every cache line not read is a miss the crash does not take). The lengths are read once,
// from the copy, and bounded, so a torn slot never makes a copy past a field's end; the
// sequence check after the copy tells whether the copy is whole.
SCR_SEQLOCK_DATA static void copy_slot(scr_slot *copy, const scr_slot *slot) {
    size_t fixed = offsetof(scr_slot, category) - offsetof(scr_slot, stamp);
    copy_racy((char *)&copy->stamp, (const char *)&slot->stamp, fixed);
    if (copy->category_len > SCR_CATEGORY_MAX) copy->category_len = SCR_CATEGORY_MAX;
    if (copy->message_len > SCR_MESSAGE_MAX) copy->message_len = SCR_MESSAGE_MAX;
    if (copy->pair_count > SCR_MAX_PAIRS) copy->pair_count = SCR_MAX_PAIRS;
    copy_racy(copy->category, slot->category, copy->category_len);
    copy_racy(copy->message, slot->message, copy->message_len);
    for (uint8_t i = 0; i < copy->pair_count; i++) {
        scr_pair *to = &copy->pairs[i];
        const scr_pair *from = &slot->pairs[i];
        copy_racy((char *)&to->key_len, (const char *)&from->key_len, 2); // key_len, value_len
        if (to->key_len > SCR_KEY_MAX) to->key_len = SCR_KEY_MAX;
        if (to->value_len > SCR_VALUE_MAX) to->value_len = SCR_VALUE_MAX;
        copy_racy(to->key, from->key, to->key_len);
        copy_racy(to->value, from->value, to->value_len);
    }
}

// Async-signal-safe. Copies the slot that ticket `n` wrote into `copy`; false if it is torn
// (its sequence was not 2n+2 before and after the copy: a writer was inside it, or a later
// lap took it).
static bool read_slot(const scr_slot *slot, uint64_t n, scr_slot *copy) {
    uint64_t before = atomic_load_explicit(&slot->seq, memory_order_acquire);
    if (before != 2 * n + 2) return false;
    copy_slot(copy, slot);
    atomic_thread_fence(memory_order_acquire); // the copy is done before the second look
    return atomic_load_explicit(&slot->seq, memory_order_relaxed) == before;
}

// Async-signal-safe: writer calls only. One breadcrumb, from a whole copy of its slot.
static void write_item(scr_writer *w, const scr_slot *copy, uint64_t timestamp_ms) {
    scr_json_object_begin(w);
    scr_json_key(w, "timestamp_ms");
    scr_json_u64(w, timestamp_ms);
    scr_json_key(w, "level");
    scr_json_cstring(w, level_name(copy->level), 7);
    scr_json_key(w, "category");
    scr_json_string(w, copy->category, copy->category_len, SCR_CATEGORY_MAX);
    scr_json_key(w, "message");
    scr_json_string(w, copy->message, copy->message_len, SCR_MESSAGE_MAX);
    scr_json_key(w, "data");
    scr_json_object_begin(w);
    uint8_t pairs = copy->pair_count <= SCR_MAX_PAIRS ? copy->pair_count : SCR_MAX_PAIRS;
    for (uint8_t i = 0; i < pairs; i++) {
        const scr_pair *pair = &copy->pairs[i];
        // A repeated key would make invalid-looking JSON objects; keep the first.
        bool repeated = false;
        for (uint8_t j = 0; j < i; j++) {
            if (copy->pairs[j].key_len == pair->key_len && memcmp(copy->pairs[j].key, pair->key, pair->key_len) == 0) {
                repeated = true;
            }
        }
        if (repeated) continue;
        scr_json_key_string(w, pair->key, pair->key_len, SCR_KEY_MAX);
        scr_json_string(w, pair->value, pair->value_len, SCR_VALUE_MAX);
    }
    scr_json_object_end(w);
    scr_json_object_end(w);
}

// Async-signal-safe (arithmetic). The wall-clock milliseconds of `stamp`, placed between `made`
// (the ring's making) and `now` (the reading) in proportion: the counter runs at a constant rate.
static uint64_t stamp_wall_ms(scr_clock_pair made, scr_clock_pair now, uint64_t stamp) {
    if (now.stamp <= made.stamp || now.wall_ns <= made.wall_ns) return now.wall_ns / 1000000u;
    if (stamp < made.stamp) stamp = made.stamp;
    if (stamp > now.stamp) stamp = now.stamp;
    double part = (double)(stamp - made.stamp) / (double)(now.stamp - made.stamp);
    return (made.wall_ns + (uint64_t)(part * (double)(now.wall_ns - made.wall_ns))) / 1000000u;
}

// Async-signal-safe. The stamp of the slot ticket `n` wrote, as it is now (a producer may be
// rewriting it: it only orders, and the copy's sequence check tells whether it was whole).
SCR_SEQLOCK_DATA static uint64_t peek_stamp(const scr_ring *ring, uint32_t shard, uint64_t n) {
    uint64_t stamp;
    copy_racy((char *)&stamp, (const char *)&slot_of(ring, shard, n)->stamp, sizeof stamp);
    return stamp;
}

// Async-signal-safe. Of the shards whose range [from[s], to[s]) is not empty, the one whose newest
// breadcrumb (at to[s] - 1) is newest when `newest`, else the one whose oldest (at from[s]) is
// oldest; -1 when every range is empty.
static int pick_shard(const scr_ring *ring, const uint64_t *from, const uint64_t *to, bool newest) {
    int best = -1;
    uint64_t best_stamp = 0;
    for (uint32_t s = 0; s < SCR_RING_SHARDS; s++) {
        if (from[s] >= to[s]) continue;
        uint64_t stamp = peek_stamp(ring, s, newest ? to[s] - 1 : from[s]);
        if (best < 0 || (newest ? stamp > best_stamp : stamp < best_stamp)) {
            best = (int)s;
            best_stamp = stamp;
        }
    }
    return best;
}

// Async-signal-safe. Of every shard's tickets so far, keeps the newest `capacity` over all shards
// by stamp (at most a shard's slot count from each, the rest being overwritten), copies each to
// the stack and checks its sequence before and after, and writes the whole ones oldest first.
void scr_ring_write_json(scr_ring *ring, scr_writer *w) {
    uint32_t capacity = ring == NULL ? 0 : ring->capacity;
    uint64_t begin[SCR_RING_SHARDS] = {0}, end[SCR_RING_SHARDS] = {0};
    uint64_t torn = 0;
    scr_clock_pair now = {0};
    if (ring != NULL && ring->slots != NULL) {
        now = clock_now();
        uint64_t oldest[SCR_RING_SHARDS];
        for (uint32_t s = 0; s < SCR_RING_SHARDS; s++) {
            end[s] = atomic_load_explicit(&ring->shards[s].next, memory_order_acquire);
            oldest[s] = end[s] > capacity ? end[s] - capacity : 0;
            begin[s] = end[s];
        }
        // Newest first, down to `capacity` breadcrumbs: what is left in [begin, end) is kept.
        for (uint32_t kept = 0; kept < capacity; kept++) {
            int s = pick_shard(ring, oldest, begin, true);
            if (s < 0) break;
            begin[s]--;
        }
    }
    scr_json_object_begin(w);
    scr_json_key(w, "capacity");
    scr_json_u64(w, capacity);
    scr_json_key(w, "items");
    scr_json_array_begin(w);
    while (ring != NULL && ring->slots != NULL) {
        int s = pick_shard(ring, begin, end, false);
        if (s < 0) break;
        uint64_t n = begin[s]++;
        scr_slot copy;
        if (!read_slot(slot_of(ring, (uint32_t)s, n), n, &copy)) {
            torn++;
            continue;
        }
        write_item(w, &copy, stamp_wall_ms(ring->made, now, copy.stamp));
    }
    scr_json_array_end(w);
    scr_json_key(w, "torn");
    scr_json_u64(w, torn);
    scr_json_object_end(w);
}

// Async-signal-safe.
long scr_breadcrumbs_write_json(char *buffer, size_t capacity) {
    return scr_ring_write_json_to(scr_global_ring(), buffer, capacity);
}

// Async-signal-safe.
long scr_ring_write_json_to(scr_ring *ring, char *buffer, size_t capacity) {
    if (buffer == NULL || capacity == 0) return -1;
    scr_writer w = {.buf = buffer, .cap = capacity - 1, .len = 0, .failed = false, .drain = NULL};
    scr_ring_write_json(ring, &w);
    if (w.failed) return -1;
    buffer[w.len] = '\0';
    return (long)w.len;
}
