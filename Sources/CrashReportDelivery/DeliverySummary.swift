/// What one delivery pass did. Public, in standard-library types: `CrashReporter.waitForDelivery`
/// returns it to the service.
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

    public init() {}

    /// The earliest time a kept report is due again, in seconds since 1970; nil when none is kept.
    public var nextAttempt: Double? { retrying.values.min() }
}
