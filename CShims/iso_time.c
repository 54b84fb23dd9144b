// ISO-8601 dates for the report's `timestamp`, computed with integer arithmetic: gmtime and
// strftime take the locale's and the time zone's locks, which the handler cannot.
#include "internal.h"

// Async-signal-safe: pure computation. UTC with milliseconds, from Unix milliseconds, as
// "2026-11-29T13:20:05.123Z" (SCR_ISO_TIME_LEN bytes and a NUL); returns the length. Days to
// civil date after H. Hinnant's public-domain algorithm.
size_t scr_iso_time_format(uint64_t ms, char out[SCR_ISO_TIME_LEN + 1]) {
    int64_t days = (int64_t)(ms / 86400000u);
    uint64_t rem = ms % 86400000u;
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    uint64_t doe = (uint64_t)(z - era * 146097);
    uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = (int64_t)yoe + era * 400;
    uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    uint64_t mp = (5 * doy + 2) / 153;
    uint64_t d = doy - (153 * mp + 2) / 5 + 1;
    uint64_t m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) y++;
    uint64_t parts[7] = {(uint64_t)y, m, d, rem / 3600000u, rem / 60000u % 60, rem / 1000u % 60, rem % 1000u};
    static const int width[7] = {4, 2, 2, 2, 2, 2, 3};
    static const char sep[7] = {'-', '-', 'T', ':', ':', '.', 'Z'};
    size_t n = 0;
    for (int i = 0; i < 7; i++) {
        uint64_t v = parts[i];
        for (int k = width[i] - 1; k >= 0; k--) {
            out[n + (size_t)k] = (char)('0' + v % 10);
            v /= 10;
        }
        n += (size_t)width[i];
        out[n++] = sep[i];
    }
    out[n] = '\0';
    return n;
}
