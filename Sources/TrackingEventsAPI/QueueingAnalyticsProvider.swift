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

/// A provider that is its backend's `BackendWire` on a `QueuedDelivery`: everything a provider
/// does is the delivery's, written here once for the three of them.
protocol QueuedDeliveryProvider: QueueingAnalyticsProvider {
    var delivery: QueuedDelivery { get }
}

extension QueuedDeliveryProvider {
    public func receive(_ event: AnalyticsEvent) { delivery.receive(event) }

    public func consentChanged(to consent: AnalyticsConsent, epoch: UInt64, farewell: AnalyticsEvent?) {
        delivery.consentChanged(to: consent, epoch: epoch, farewell: farewell)
    }

    /// Writes what group commit holds back, then sends batches until the queue is empty, the
    /// server asks to wait, or consent goes.
    public func flush() async { await delivery.flush() }

    /// Writes what group commit holds back and stops the timer, then sends what it can (the
    /// farewell first) until `timeout` has passed.
    public func shutdown(within timeout: Duration) async { await delivery.shutdown(within: timeout) }

    /// Events waiting in the queue.
    public var queuedCount: Int { delivery.queuedCount }

    /// Why the configured URL cannot be used; nil when it can. Events stay queued meanwhile.
    public var configurationError: String? { delivery.configurationError }
}

extension EventsAPIProvider: QueuedDeliveryProvider {}
extension TelemetryDeckProvider: QueuedDeliveryProvider {}
extension PostHogProvider: QueuedDeliveryProvider {}
