import CrashReporterSupport

/// Sentry's `X-Sentry-Rate-Limits` response header: a comma-separated list of
/// `retry_after:categories:scope[:reason]`, where `retry_after` is in seconds and `categories`
/// a `;`-separated list of data categories (empty for every category). Any response may carry
/// it, a 429 most often.
public struct SentryRateLimits: Sendable, Equatable {
    /// One entry of the header.
    public struct Limit: Sendable, Equatable {
        /// How long to wait, in seconds.
        public var seconds: Double
        /// The categories it applies to; empty for all of them.
        public var categories: [String]

        public init(seconds: Double, categories: [String]) {
            self.seconds = seconds
            self.categories = categories
        }

        /// Whether the limit applies to a crash event: it names `error` (the category crashes
        /// are counted under) or `default`, or no category at all.
        public var appliesToEvents: Bool {
            categories.isEmpty || categories.contains("error") || categories.contains("default")
        }
    }

    /// The entries that could be read, in order. An entry without a finite, non-negative
    /// number of seconds is left out; the scope and reason are not kept.
    public var limits: [Limit]

    /// Reads the header's value.
    public init(_ value: some StringProtocol) {
        limits = value.split(separator: ",").compactMap { entry in
            let fields = entry.trimmingASCIIWhitespace().split(separator: ":", omittingEmptySubsequences: false)
            guard let seconds = fields.first.flatMap({ Double($0) }), seconds >= 0, seconds.isFinite else {
                return nil
            }
            let categories = fields.count > 1 ? fields[1].split(separator: ";").map(String.init) : []
            return Limit(seconds: seconds, categories: categories)
        }
    }

    /// Seconds to wait before sending a crash event: the longest limit that applies to events,
    /// `nil` when none does.
    public var eventWait: Double? {
        limits.filter(\.appliesToEvents).map(\.seconds).max()
    }
}
