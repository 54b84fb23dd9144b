import Foundation

/// What happened when a report was offered to a server.
public enum DeliveryOutcome: Sendable, Equatable {
    /// The server answered with this status. `retryAfter` is what it asked us to wait
    /// (`Retry-After`, or Sentry's `X-Sentry-Rate-Limits` for errors), `reason` its words.
    case response(status: Int, retryAfter: TimeInterval?, reason: String)
    /// No answer: refused, reset, timed out, DNS failure…
    case networkError(String)
}

/// The delivery state of one report, kept next to it on disk so that it survives restarts.
public struct DeliveryState: Codable, Sendable, Equatable {
    public var attempts: Int
    /// When the report was first offered (the age limit counts from here).
    public var firstAttempt: Date?
    /// Not before this time.
    public var nextAttempt: Date?
    public var lastError: String?

    public init(attempts: Int = 0, firstAttempt: Date? = nil, nextAttempt: Date? = nil, lastError: String? = nil) {
        self.attempts = attempts
        self.firstAttempt = firstAttempt
        self.nextAttempt = nextAttempt
        self.lastError = lastError
    }

    enum CodingKeys: String, CodingKey {
        case attempts
        case firstAttempt = "first_attempt"
        case nextAttempt = "next_attempt"
        case lastError = "last_error"
    }
}

/// What to do with a report after an outcome.
public enum DeliveryDecision: Sendable, Equatable {
    case delivered
    case retry(at: Date, state: DeliveryState)
    case reject(status: Int?, reason: String)
}

/// The retry rules as a pure value: no clock, no randomness of its own, no I/O, so that every
/// rule is tested directly.
///
/// - 2xx: delivered.
/// - No answer, 408, 429 or 5xx: kept and retried after `base · 2^(attempts-1)` seconds,
///   capped at `maximumDelay`, with ±`jitter` spread; a server's `Retry-After` (or Sentry rate
///   limit) is honoured when longer, up to `maximumServerDelay`.
/// - Any other 4xx: rejected for good, with the status and the server's reason.
/// - After `maximumAttempts` or once the report has been retried for `maximumAge`: rejected.
public struct DeliveryPolicy: Sendable, Equatable {
    public var baseDelay: TimeInterval
    public var maximumDelay: TimeInterval
    public var maximumServerDelay: TimeInterval
    /// Fraction of the delay added or removed at random (0.2 = ±20 %).
    public var jitter: Double
    public var maximumAttempts: Int
    public var maximumAge: TimeInterval

    public init(
        baseDelay: TimeInterval = 30,
        maximumDelay: TimeInterval = 6 * 3600,
        maximumServerDelay: TimeInterval = 24 * 3600,
        jitter: Double = 0.2,
        maximumAttempts: Int = 30,
        maximumAge: TimeInterval = 30 * 86400
    ) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumServerDelay = maximumServerDelay
        self.jitter = jitter
        self.maximumAttempts = maximumAttempts
        self.maximumAge = maximumAge
    }

    /// The decision for `outcome` of an attempt made at `now` on a report in `state`.
    /// `random` is a number in 0..<1 (the jitter's draw).
    public func decide(_ outcome: DeliveryOutcome, state: DeliveryState, now: Date, random: Double) -> DeliveryDecision
    {
        var next = state
        next.attempts += 1
        next.firstAttempt = state.firstAttempt ?? now
        let serverDelay: TimeInterval?
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
        }
        if next.attempts >= maximumAttempts {
            return .reject(
                status: nil, reason: "gave up after \(next.attempts) attempts; last: \(next.lastError ?? "")")
        }
        if let first = next.firstAttempt, now.timeIntervalSince(first) >= maximumAge {
            return .reject(
                status: nil, reason: "gave up after \(Int(maximumAge / 86400)) days; last: \(next.lastError ?? "")")
        }
        var delay = backoff(attempts: next.attempts, random: random)
        if let serverDelay { delay = Swift.max(delay, Swift.min(serverDelay, maximumServerDelay)) }
        let at = now.addingTimeInterval(delay)
        next.nextAttempt = at
        return .retry(at: at, state: next)
    }

    /// The backoff before attempt `attempts + 1`, jittered.
    public func backoff(attempts: Int, random: Double) -> TimeInterval {
        let exponent = Double(Swift.min(Swift.max(attempts - 1, 0), 40))
        let raw = Swift.min(baseDelay * pow(2, exponent), maximumDelay)
        let spread = raw * jitter * (2 * Swift.min(Swift.max(random, 0), 1) - 1)
        return Swift.max(0, raw + spread)
    }

    /// 408, 429 and 5xx are worth retrying; any other 4xx is a verdict on the report.
    public static func isTransient(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }
}
