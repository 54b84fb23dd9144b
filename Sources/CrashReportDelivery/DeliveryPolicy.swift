import CrashReporterSupport

/// What to do with a report after an outcome.
package enum DeliveryDecision: Sendable, Equatable {
    case delivered
    case retry(at: Timestamp, state: DeliveryState)
    case reject(status: Int?, reason: String)
}

/// The retry rules as a pure value: no clock, no randomness of its own, no I/O, so that every
/// rule is tested directly. The waits are the support layer's one back-off (`RetryBackoff`).
///
/// The transports' answers come as the support layer's one `DeliveryOutcome`:
///
/// - delivered (2xx, or nothing had to go out): delivered.
/// - retry after (no answer, 408, 429 or 5xx): kept and retried after
///   `base · 2^(attempts-1)`, capped at 6 h, with ±20 % spread; a server's `Retry-After` (or
///   Sentry rate limit) is honoured when longer, up to 24 h.
/// - rejected (any other 4xx, or a request that could not be made here): rejected for good,
///   with the status when there was one and the reason; damaged: rejected without a status.
/// - After `maximumAttempts` or once the report has been retried for `maximumAge`: rejected.
package struct DeliveryPolicy: Sendable, Equatable {
    /// Crash reports' waits (ConfigurationDefaults): 30 s doubling to 6 h, ±20 %, a server's
    /// wait up to 24 h.
    package static let crashReportBackoff = RetryBackoff(
        base: ConfigurationDefaults.retryBaseDelay, cap: ConfigurationDefaults.retryMaximumDelay,
        longestServerWait: ConfigurationDefaults.retryMaximumServerDelay, jitter: ConfigurationDefaults.retryJitter)

    package var backoff = Self.crashReportBackoff
    package var maximumAttempts: Int = ConfigurationDefaults.retryMaximumAttempts
    package var maximumAge: Duration = ConfigurationDefaults.retryMaximumAge

    /// The decision for `outcome` of an attempt made at `now` on a report in `state`.
    /// `random` is a number in 0..<1 (the jitter's draw).
    package func decide(
        _ outcome: DeliveryOutcome, state: DeliveryState, now: Timestamp, random: Double
    ) -> DeliveryDecision {
        var next = state
        next.attempts += 1
        next.firstAttempt = state.firstAttempt ?? now
        let serverWait: Duration?
        switch outcome {
        case .delivered:
            return .delivered
        case .retryAfter(let wait, let reason):
            next.lastError = reason
            serverWait = wait
        case .rejected(let status, let reason):
            return .reject(status: status, reason: reason)
        case .damaged(let reason):
            return .reject(status: nil, reason: "damaged report: \(reason)")
        }
        if next.attempts >= maximumAttempts {
            return .reject(
                status: nil, reason: "gave up after \(next.attempts) attempts; last: \(next.lastError ?? "")")
        }
        if let first = next.firstAttempt, now.seconds(since: first) >= maximumAge.inSeconds {
            return .reject(
                status: nil,
                reason: "gave up after \(Int(maximumAge.inDays)) days; last: \(next.lastError ?? "")")
        }
        let delay = backoff.wait(afterFailures: next.attempts, serverWait: serverWait, random: random)
        let at = now.adding(seconds: delay.inSeconds)
        next.nextAttempt = at
        return .retry(at: at, state: next)
    }
}
