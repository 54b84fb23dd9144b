/// What a report carries beside itself about the reports that were not sent: how many of its
/// signature were withheld by the cap (a summary), and how many unsent reports retention
/// removed since a report last went out. The plain transport sends them as the headers
/// `X-Crash-Report-Suppressed` and `X-Crash-Report-Pruned`, the Sentry transport in the event's
/// `extra` (and a `suppressed` tag); a zero is not sent.
package struct DeliveryNotes: Sendable, Equatable {
    package var suppressed: Int = 0
    package var pruned: Int = 0

    package static let suppressedHeader = "X-Crash-Report-Suppressed"
    package static let prunedHeader = "X-Crash-Report-Pruned"

    /// The non-zero counts by name (`suppressed`, `pruned`).
    package var counts: [String: Int] {
        ["suppressed": suppressed, "pruned": pruned].filter { $0.value > 0 }
    }
}
