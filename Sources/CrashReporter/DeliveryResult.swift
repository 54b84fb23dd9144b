import CrashReportDelivery

/// What the first delivery pass of this launch did (`CrashReporter.waitForDelivery`), in
/// standard-library types. Times are seconds since 1970 (`Date(timeIntervalSince1970:)` makes
/// one a `Date`).
public struct DeliveryResult: Sendable, Equatable {
    /// The ids of the reports a server accepted.
    public var delivered: [String]
    /// The ids of the reports refused for good (or damaged), now in `rejected/`.
    public var rejected: [String]
    /// Kept for a later attempt: each id with the time of that attempt.
    public var retrying: [String: Double]
    /// Why each report tried and kept for later was not delivered (a server's status and words,
    /// or the network error), by id.
    public var failures: [String: String]
    /// Deleted because the user opted out of crash reporting.
    public var deleted: Int
    /// Held back by the crash-loop cap, now in `withheld/` (docs/crash-loops.md).
    public var withheld: [String]
    /// Summaries sent: each carrier's id with the count of withheld reports it stood for.
    public var summaries: [String: Int]
    /// Pending reports removed unsent by the retention bounds.
    public var pruned: Int
    /// When the next summary falls due; nil when none waits.
    public var nextSummary: Double?

    /// The earliest time a kept report is due again; nil when none is kept.
    public var nextAttempt: Double? { retrying.values.min() }

    init(_ pass: DeliverySummary) {
        delivered = pass.delivered
        rejected = pass.rejected
        retrying = pass.retrying
        failures = pass.failures
        deleted = pass.deleted
        withheld = pass.withheld
        summaries = pass.summaries
        pruned = pass.pruned
        nextSummary = pass.nextSummary
    }
}
