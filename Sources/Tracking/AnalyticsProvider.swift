/// A product-analytics backend behind the tracking façade, like a `LogHandler` behind
/// swift-log's `Logger`. The tracker calls it only while the user has granted analytics
/// consent, and tells it each change of consent.
///
/// Rules for an implementation:
/// - `receive(_:)` is called on the thread that tracked the event: return quickly (append to
///   memory or to a file, never wait on the network).
/// - On `consentChanged(to:epoch:farewell:)` with anything but `.granted`, delete everything
///   stored (queue, retries) before returning, and deliver `farewell` (the
///   `analytics_opted_out` event) once, best effort, without storing it.
/// - Never send an event whose `consentEpoch` is not the current one.
/// - Don't call back into the tracker from these methods.
public protocol AnalyticsProvider: Sendable {
    /// An event tracked while consent is granted.
    func receive(_ event: AnalyticsEvent)

    /// Consent is now `consent` (once when the tracker is made, with the stored choice, then
    /// at each change). `epoch` numbers the current or last grant.
    func consentChanged(to consent: AnalyticsConsent, epoch: UInt64, farewell: AnalyticsEvent?)

    /// Sends what is queued now, as far as the server lets it.
    func flush() async

    /// Sends what it can within `timeout`, then stops its timers.
    func shutdown(within timeout: Duration) async
}

extension AnalyticsProvider {
    public func consentChanged(to consent: AnalyticsConsent, epoch: UInt64, farewell: AnalyticsEvent?) {
        if let farewell { receive(farewell) }
    }

    public func flush() async {}

    public func shutdown(within timeout: Duration) async { await flush() }
}
