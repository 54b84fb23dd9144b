/// The one back-off rule of the package's outboxes (crash reports, analytics batches): after
/// the first failure wait `base`, after each further failure in a row twice as long, at most
/// `cap`, spread by ±`jitter` at random; a server's own wait (`Retry-After`, a rate limit) is
/// honoured within `shortestServerWait…longestServerWait`. A pure value: no clock, no
/// randomness of its own, so every rule is tested directly.
///
/// Each outbox keeps its own numbers, crash reports 30 s to 6 h, analytics batches 30 s to
/// 10 min (docs/decisions/0150-crash-reports-and-analytics-batches-share-one-outbox.md).
package struct RetryBackoff: Sendable, Equatable {
    /// The wait after the first failure.
    package var base: Duration
    /// The longest wait the doubling reaches.
    package var cap: Duration
    /// A server's wait is never taken shorter than this…
    package var shortestServerWait: Duration
    /// …nor longer than this.
    package var longestServerWait: Duration
    /// Fraction of the wait added or removed at random (0.2 = ±20 %; 0, none).
    package var jitter: Double

    package init(
        base: Duration, cap: Duration, shortestServerWait: Duration = .zero, longestServerWait: Duration,
        jitter: Double = 0
    ) {
        self.base = base
        self.cap = cap
        self.shortestServerWait = shortestServerWait
        self.longestServerWait = longestServerWait
        self.jitter = jitter
    }

    /// The wait after `failures` failures in a row (none: zero): `base · 2^(failures-1)`, at
    /// most `cap`, then jittered by `random`, a number in 0..<1 (0.5: no spread).
    package func delay(afterFailures failures: Int, random: Double = 0.5) -> Duration {
        guard failures > 0 else { return .zero }
        var wait = base
        // Stops doubling at the cap, so that no count of failures overflows.
        for _ in 1..<Swift.min(failures, 64) where wait < cap { wait *= 2 }
        let raw = Swift.min(wait, cap).inSeconds
        let spread = raw * jitter * (2 * Swift.min(Swift.max(random, 0), 1) - 1)
        return .seconds(Swift.max(0, raw + spread))
    }

    /// A server's wait, kept within `shortestServerWait…longestServerWait`.
    package func serverWait(_ asked: Duration) -> Duration {
        Swift.min(Swift.max(asked, shortestServerWait), longestServerWait)
    }

    /// The wait after `failures` failures in a row when the server asked for `serverWait`
    /// (nil: it did not): the longer of the back-off and the server's wait within its bounds.
    package func wait(afterFailures failures: Int, serverWait asked: Duration?, random: Double = 0.5) -> Duration {
        let backoff = delay(afterFailures: failures, random: random)
        guard let asked else { return backoff }
        return Swift.max(backoff, serverWait(asked))
    }
}
