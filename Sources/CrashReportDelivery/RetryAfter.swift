import CrashReportSentry
import Foundation

/// How long a server asked us to wait, from `Retry-After` (seconds or an HTTP date) or
/// Sentry's `X-Sentry-Rate-Limits` (read by `SentryRateLimits`).
public enum RetryAfter {
    public static func parse(headers: [String: String], now: Date) -> TimeInterval? {
        var best: TimeInterval?
        func keep(_ value: TimeInterval) { best = Swift.max(best ?? 0, value) }
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        if let limits = lowered["x-sentry-rate-limits"], let seconds = SentryRateLimits(limits).eventWait {
            keep(seconds)
        }
        if let value = lowered["retry-after"]?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Double(value), seconds >= 0 {
                keep(seconds)
            } else if let date = httpDate(value) {
                keep(Swift.max(0, date.timeIntervalSince(now)))
            }
        }
        return best
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
