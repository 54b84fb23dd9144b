import CrashReportSentry
import CrashReporterSupport

/// The delivery's wait headers: `Retry-After` (delay seconds or an HTTP date) and Sentry's
/// `X-Sentry-Rate-Limits`.
///
/// Properties: nothing crashes; every wait read is finite and never negative; a delay written
/// as whole seconds reads back as that number.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRetryHeaders(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let now = Timestamp(milliseconds: 1_800_000_000_000)
    if let seconds = RetryAfter.seconds(text, now: now) {
        precondition(seconds.isFinite && seconds >= 0, "Retry-After read as \(seconds)")
        if seconds < 1e15, seconds == seconds.rounded(.down) {
            precondition(RetryAfter.seconds(String(Int(seconds)), now: now) == seconds, "a whole delay changed")
        }
    }
    for limit in SentryRateLimits(text).limits {
        precondition(limit.seconds.isFinite && limit.seconds >= 0, "a rate limit read as \(limit.seconds)")
        precondition(!limit.categories.contains(""), "an empty category was read")
        _ = limit.appliesToEvents
    }
    return 0
}
