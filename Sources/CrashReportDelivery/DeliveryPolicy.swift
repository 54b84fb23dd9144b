import CrashReporterSupport

/// What happened when a report was offered to a server.
package enum DeliveryOutcome: Sendable, Equatable {
    /// The server answered with this status. `retryAfter` is what it asked us to wait, in
    /// seconds (`Retry-After`, or Sentry's `X-Sentry-Rate-Limits` for errors), `reason` its words.
    case response(status: Int, retryAfter: Double?, reason: String)
    /// No answer: refused, reset, timed out, DNS or TLS failure… with the reason on one line.
    case networkError(String)
    /// Never sent: the request could not be made here (an envelope that cannot be built, a body
    /// that cannot be compressed). No server said anything; trying again makes the same request.
    case unsendable(String)
    /// Nothing had to go out (no session Sentry would keep, a transport that carries none), so
    /// nothing was sent and nothing is kept for later.
    case nothingToSend(String)
}

extension DeliveryOutcome: CustomStringConvertible {
    /// One line for a diagnostic: `HTTP 503: busy`, `network error: connection refused`.
    package var description: String {
        switch self {
        case .response(let status, _, let reason): reason.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(reason)"
        case .networkError(let reason): "network error: \(reason)"
        case .unsendable(let reason): "not sent: \(reason)"
        case .nothingToSend(let reason): "nothing to send: \(reason)"
        }
    }
}

/// What to do with a report after an outcome.
package enum DeliveryDecision: Sendable, Equatable {
    case delivered
    case retry(at: Timestamp, state: DeliveryState)
    case reject(status: Int?, reason: String)
}

/// The retry rules as a pure value: no clock, no randomness of its own, no I/O, so that every
/// rule is tested directly. The waits are the support layer's one back-off (`RetryBackoff`).
///
/// - 2xx: delivered.
/// - No answer, 408, 429 or 5xx: kept and retried after `base · 2^(attempts-1)`, capped at
///   6 h, with ±20 % spread; a server's `Retry-After` (or Sentry rate limit) is honoured when
///   longer, up to 24 h.
/// - Any other 4xx: rejected for good, with the status and the server's reason.
/// - A request that could not be made (``DeliveryOutcome/unsendable(_:)``): rejected for good,
///   without a status; nothing to send: delivered.
/// - After `maximumAttempts` or once the report has been retried for `maximumAge`: rejected.
package struct DeliveryPolicy: Sendable, Equatable {
    /// Crash reports' waits: 30 s doubling to 6 h, ±20 %, a server's wait up to 24 h.
    package static let crashReportBackoff = RetryBackoff(
        base: .seconds(30), cap: .seconds(6 * 3600), longestServerWait: .seconds(24 * 3600), jitter: 0.2)

    package var backoff = Self.crashReportBackoff
    package var maximumAttempts: Int = 30
    package var maximumAge: Duration = .seconds(30 * 86400)

    /// The decision for `outcome` of an attempt made at `now` on a report in `state`.
    /// `random` is a number in 0..<1 (the jitter's draw).
    package func decide(
        _ outcome: DeliveryOutcome, state: DeliveryState, now: Timestamp, random: Double
    ) -> DeliveryDecision {
        var next = state
        next.attempts += 1
        next.firstAttempt = state.firstAttempt ?? now
        let serverDelay: Double?
        switch outcome {
        case .response(let status, _, _) where (200..<300).contains(status):
            return .delivered
        case .response(let status, let retryAfter, let reason) where Self.isTransient(status):
            next.lastError = "HTTP \(status)" + (reason.isEmpty ? "" : ": \(reason)")
            serverDelay = retryAfter
        case .response(let status, _, let reason):
            return .reject(status: status, reason: reason.isEmpty ? "HTTP \(status)" : reason)
        case .networkError(let message):
            next.lastError = message
            serverDelay = nil
        case .unsendable(let reason):
            return .reject(status: nil, reason: reason)
        case .nothingToSend:
            return .delivered
        }
        if next.attempts >= maximumAttempts {
            return .reject(
                status: nil, reason: "gave up after \(next.attempts) attempts; last: \(next.lastError ?? "")")
        }
        if let first = next.firstAttempt, now.seconds(since: first) >= maximumAge.inSeconds {
            return .reject(
                status: nil,
                reason: "gave up after \(maximumAge.components.seconds / 86400) days; last: \(next.lastError ?? "")")
        }
        let delay = backoff.wait(afterFailures: next.attempts, serverSeconds: serverDelay, random: random)
        let at = now.adding(seconds: delay.inSeconds)
        next.nextAttempt = at
        return .retry(at: at, state: next)
    }

    /// 408, 429 and 5xx are worth retrying; any other 4xx is a verdict on the report.
    package static func isTransient(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }
}
