/// The events API's limits on one event and one batch (docs/events-api.md §3 and §4.2), owned
/// here once: the client (`TrackingEventsAPI`) fits events into them before it queues them, and
/// the collector (`CrashCollectorParsers`) refuses what exceeds them.
package enum EventLimits {
    /// An event, serialized, is at most 8 KB.
    package static let maxEventBytes = 8 * 1024
    /// At most 50 properties per event (the client keeps the first by key).
    package static let maxProperties = 50
    /// Property keys are 1–64 characters.
    package static let maxPropertyKeyLength = 64
    /// String property values are at most 1,024 characters.
    package static let maxPropertyStringLength = 1024
    /// `anonymous_id` and `user_id` are 1–128 characters.
    package static let maxIDLength = 128
    /// Each context value is a string of at most 64 characters.
    package static let maxContextValueLength = 64
    /// The client sends bodies of at most 1,000,000 bytes: stricter than the collector's bound.
    package static let maxClientBodyBytes = 1_000_000
    /// The collector takes bodies of at most 1 MiB, before and after gzip.
    package static let maxCollectorBodyBytes = 1 << 20
    /// A batch holds at most 100 events.
    package static let maxBatchEvents = 100
}
