import CrashReporterSupport

/// When to send and what to do with a batch after each attempt: the retry rules of the
/// events API as a pure value type. Time comes in as an argument, so every rule is testable
/// without waiting.
///
/// The answers come as the support layer's one `DeliveryOutcome` (the rule both outboxes read
/// a server's answer by):
///
/// - delivered (2xx): the batch is done (per-event rejections inside a 200 are not retried).
/// - retry after (no response, 408, 429, 5xx): keep the batch; wait what the server asked
///   (`Retry-After`, 1 s to 1 h), else back off 30 s, then 60, 120, … at most 10 min.
/// - rejected with 413: keep the batch and halve the batch size; a single event that is too
///   large is dropped.
/// - rejected with any other status, or damaged: drop the batch.
struct DeliveryStateMachine: Sendable, Equatable {
    /// The batches' waits (the support layer's one back-off): 30 s doubling to 10 min, no
    /// spread; a server's `Retry-After` within 1 s … 1 h.
    static let retryBackoff = RetryBackoff(
        base: .seconds(30), cap: .seconds(600), shortestServerWait: .seconds(1), longestServerWait: .seconds(3600))

    enum State: Sendable, Equatable {
        case idle
        case sending
        case waiting(until: ContinuousClock.Instant)
    }

    enum Decision: Sendable, Equatable {
        /// Remove the batch from the queue: `delivered` or refused for good.
        case remove(delivered: Bool)
        /// Keep the batch; the next attempt may start at `retryAt`.
        case keep(retryAt: ContinuousClock.Instant)
    }

    let maxBatchSize: Int
    private(set) var state: State = .idle
    /// Attempts that failed in a row without a server's wait (no response, 5xx).
    private(set) var failures = 0
    /// How many events the next batch may hold (lowered by 413).
    private(set) var batchSize: Int

    init(maxBatchSize: Int = 100) {
        self.maxBatchSize = maxBatchSize
        self.batchSize = maxBatchSize
    }

    /// Whether an attempt may start at `now`: not while one is in flight or a wait runs.
    func canSend(at now: ContinuousClock.Instant) -> Bool {
        switch state {
        case .idle: return true
        case .sending: return false
        case .waiting(let until): return now >= until
        }
    }

    /// Starts an attempt; false (and no change) when `canSend` is false.
    mutating func startSending(at now: ContinuousClock.Instant) -> Bool {
        guard canSend(at: now) else { return false }
        state = .sending
        return true
    }

    /// The end of a wait, nil when none runs.
    var retryAt: ContinuousClock.Instant? {
        if case .waiting(let until) = state { return until }
        return nil
    }

    /// Applies the outcome of the attempt that sent `batchCount` events.
    mutating func finish(_ outcome: DeliveryOutcome, batchCount: Int, at now: ContinuousClock.Instant) -> Decision {
        switch outcome {
        case .delivered:
            failures = 0
            batchSize = maxBatchSize
            state = .idle
            return .remove(delivered: true)
        case .retryAfter(let asked?, _):
            // The server's own wait does not lengthen the back-off of later failures.
            let until = now + Self.retryBackoff.serverWait(asked)
            state = .waiting(until: until)
            return .keep(retryAt: until)
        case .retryAfter(nil, _):
            return keepAfterFailure(now)
        case .rejected(status: 413, _) where batchCount > 1:
            batchSize = max(1, batchCount / 2)
            state = .idle
            return .keep(retryAt: now)
        case .rejected, .damaged:
            state = .idle
            return .remove(delivered: false)
        }
    }

    private mutating func keepAfterFailure(_ now: ContinuousClock.Instant) -> Decision {
        failures += 1
        let until = now + Self.retryBackoff.delay(afterFailures: failures)
        state = .waiting(until: until)
        return .keep(retryAt: until)
    }

    /// Forgets every wait and failure (consent revoked: pending retries are cancelled).
    mutating func reset() {
        self = DeliveryStateMachine(maxBatchSize: maxBatchSize)
    }

    /// Parses `Retry-After` (`RetryAfter`): delay seconds, or an HTTP date relative to `now`.
    /// Cut to the longest server wait, which `finish` would apply anyway, so that an absurd
    /// value (`99999999999999999999`) cannot overflow a `Duration`.
    static func parseRetryAfter(_ value: String?, now: Timestamp) -> Duration? {
        DeliveryOutcome.serverWait(seconds: RetryAfter.seconds(value, now: now)).map {
            min($0, retryBackoff.longestServerWait)
        }
    }
}
