/// What one delivery pass did (`CrashReporter.waitForDelivery` hands the service a copy, its
/// `DeliveryResult`).
public struct DeliverySummary: Sendable, Equatable {
    /// The ids of the reports a server accepted.
    public var delivered: [String] = []
    /// The ids of the reports refused for good (or damaged), now in `rejected/`.
    public var rejected: [String] = []
    /// Kept for a later attempt: each id with the time of that attempt, in seconds since 1970
    /// (`Date(timeIntervalSince1970:)` makes it a `Date`).
    public var retrying: [String: Double] = [:]
    /// Why each report tried in this pass and kept for later was not delivered (a server's
    /// status and words, or the network error), by id.
    public var failures: [String: String] = [:]
    /// Deleted because the user opted out of crash reporting.
    public var deleted = 0
    /// Held back by the crash-loop cap, now in `withheld/` (docs/crash-loops.md).
    public var withheld: [String] = []
    /// Summaries sent: each carrier's id with the count of withheld reports it stood for.
    public var summaries: [String: Int] = [:]
    /// Pending reports removed unsent by the retention bounds in this pass.
    public var pruned = 0
    /// When the next summary falls due, in seconds since 1970; nil when none waits.
    public var nextSummary: Double?

    public init() {}

    /// The earliest time a kept report is due again, in seconds since 1970; nil when none is kept.
    public var nextAttempt: Double? { retrying.values.min() }

    /// When a pass has something to do again: the next retry or summary; nil when nothing waits.
    public var nextPass: Double? { [nextAttempt, nextSummary].compactMap { $0 }.min() }
}
