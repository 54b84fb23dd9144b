import CrashReporterSupport
import Tracking

/// An analytics provider for tests: records every event it receives and every change of
/// consent, in order. Use it in a service's own tests to assert what was tracked:
///
/// ```swift
/// let recorder = RecordingAnalyticsProvider()
/// let tracker = Tracker(stateDirectory: tmp, providers: [recorder])
/// try tracker.setAnalyticsConsent(granted: true)
/// tracker.track(OrdersEvent.orderPlaced(items: 2, express: true))
/// #expect(recorder.eventNames == ["analytics_opted_in", "order_placed"])
/// ```
public final class RecordingAnalyticsProvider: AnalyticsProvider {
    /// What happened, in order.
    public enum Entry: Sendable, Equatable {
        /// An event the tracker handed to `AnalyticsProvider.receive(_:)`.
        case event(AnalyticsEvent)
        /// A consent change, with its epoch (`AnalyticsProvider.consentChanged(to:epoch:farewell:)`).
        case consent(AnalyticsConsent, epoch: UInt64)
        /// The opt-out event that came with a consent change to anything but granted.
        case farewell(AnalyticsEvent)
        /// A call of `AnalyticsProvider.flush()`.
        case flush
        /// A call of `AnalyticsProvider.shutdown(within:)`.
        case shutdown
    }

    private let log = Lock<[Entry]>([])

    /// A provider that has recorded nothing yet.
    public init() {}

    /// Records `event`.
    public func receive(_ event: AnalyticsEvent) {
        log.withLock { $0.append(.event(event)) }
    }

    /// Records the farewell first, when there is one, then the change.
    public func consentChanged(to consent: AnalyticsConsent, epoch: UInt64, farewell: AnalyticsEvent?) {
        log.withLock { log in
            if let farewell { log.append(.farewell(farewell)) }
            log.append(.consent(consent, epoch: epoch))
        }
    }

    /// Records the call.
    public func flush() async {
        log.withLock { $0.append(.flush) }
    }

    /// Records the call.
    public func shutdown(within timeout: Duration) async {
        log.withLock { $0.append(.shutdown) }
    }

    /// Everything recorded so far.
    public var entries: [Entry] { log.withLock { $0 } }

    /// The events received (not the farewell).
    public var events: [AnalyticsEvent] {
        entries.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    /// The names of the events received.
    public var eventNames: [String] { events.map(\.name) }

    /// The `analytics_opted_out` events handed over on revocation.
    public var farewells: [AnalyticsEvent] {
        entries.compactMap { if case .farewell(let e) = $0 { e } else { nil } }
    }

    /// Forgets what was recorded.
    public func reset() {
        log.withLock { $0.removeAll() }
    }
}
