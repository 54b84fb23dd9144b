import Tracking

/// A provider of this module: the events API's, TelemetryDeck's or PostHog's, all on the same
/// queue, retries and consent handling. A service picks one with one line and changes nothing
/// else (docs/tracking.md, "Choosing a backend").
public protocol QueueingAnalyticsProvider: AnalyticsProvider {
    /// Events waiting in the queue.
    var queuedCount: Int { get }
    /// Why the configured URL cannot be used; nil when it can, or when none is set.
    var configurationError: String? { get }
}

extension EventsAPIProvider: QueueingAnalyticsProvider {}
extension TelemetryDeckProvider: QueueingAnalyticsProvider {}
extension PostHogProvider: QueueingAnalyticsProvider {}
