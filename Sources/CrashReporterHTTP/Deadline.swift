/// The one instant by which the whole exchange must be over. Every wait (connect, TLS, send,
/// receive) polls with what is left of it, so a slow server cannot stretch a request by
/// trickling bytes.
struct Deadline: Sendable {
    let instant: ContinuousClock.Instant

    init(after duration: Duration) {
        instant = ContinuousClock.now.advanced(by: duration)
    }

    init(instant: ContinuousClock.Instant) {
        self.instant = instant
    }

    var hasPassed: Bool { ContinuousClock.now >= instant }

    /// What is left, for `poll(2)`: milliseconds rounded up (so a wait never ends a hair early
    /// and spins), 0 when passed, at most `Int32.max`.
    var pollMilliseconds: Int32 {
        let left = instant - ContinuousClock.now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// For one of `count` remaining connection attempts: an equal share of what is left, so one
    /// address that never answers cannot use up the time of the others.
    func share(_ count: Int) -> Deadline {
        let left = instant - ContinuousClock.now
        guard count > 1, left > .zero else { return self }
        return Deadline(instant: ContinuousClock.now.advanced(by: left / count))
    }
}
