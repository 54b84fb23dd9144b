// Report ids: random UUIDs (version 4, RFC 4122 variant) in their 36-character text form, made
// in the handler, where no library that allocates or locks may help.
#include "internal.h"

#include <sys/syscall.h>
#include <unistd.h>

// Async-signal-safe: getrandom(2) without blocking, time and thread id as a fallback.
void scr_uuid_v4(char out[SCR_UUID_TEXT_LEN + 1]) {
    static const char hex[] = "0123456789abcdef";
    uint8_t b[16];
    long got = syscall(SYS_getrandom, b, sizeof b, 0x0001 /* GRND_NONBLOCK */);
    if (got != (long)sizeof b) {
        uint64_t x = scr_now_realtime_ms() ^ ((uint64_t)scr_gettid() << 32) ^ (uint64_t)(uintptr_t)&b;
        for (int i = 0; i < 16; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b[i] = (uint8_t)x;
        }
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); // version 4
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); // RFC 4122 variant
    int o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        out[o++] = hex[b[i] >> 4];
        out[o++] = hex[b[i] & 0xf];
    }
    out[o] = '\0';
}
