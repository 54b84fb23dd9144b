import CrashReportSentry
import CrashReporterHTTP
import CrashReporterSupport

/// How long a server asked us to wait, in seconds: `Retry-After` (delay-seconds or an HTTP
/// date, read by the support module's `RetryAfter.seconds`) or Sentry's
/// `X-Sentry-Rate-Limits` for errors (read by `SentryRateLimits`), whichever is longer. Every
/// occurrence of a repeated header counts.
package enum ServerRetryDelay {
    package static func parse(headers: HTTPHeaders, now: Timestamp) -> Double? {
        let sentry = headers.values(for: "X-Sentry-Rate-Limits").compactMap { SentryRateLimits($0).eventWait }
        let plain = headers.values(for: "Retry-After").compactMap {
            RetryAfter.seconds($0, now: now)
        }
        return (sentry + plain).max()
    }
}
