import CrashReporterSupport
import Synchronization

/// The tracking façade's engine. Every event becomes an anonymous breadcrumb for the crash
/// reporter (unless crash reporting is opted out), and reaches the analytics providers only
/// while analytics consent is granted.
///
/// Services usually make one at startup and hand it to `TrackingSystem.bootstrap(_:)`, then
/// call the global `track(_:)`:
///
/// ```swift
/// let state = StateDirectory.resolve(appName: "orders")
/// let tracker = Tracker(stateDirectory: state, providers: [EventsAPIProvider(stateDirectory: state)])
/// TrackingSystem.bootstrap(tracker)
/// track(OrdersEvent.orderPlaced(items: 3, express: false))
/// ```
///
/// The analytics choice is read from `<state>/analytics.consent` before anything else; while it
/// is unknown or denied nothing but the choice is stored.
public final class Tracker: Sendable {
    /// The event the tracker sends when the user opts in to analytics.
    public static let optedInEventName = "analytics_opted_in"
    /// The event the tracker hands the providers, once and never stored, when the user opts out.
    public static let optedOutEventName = "analytics_opted_out"

    /// Nil for the breadcrumbs-only tracker: no analytics at all.
    public let stateDirectory: String?
    private let providers: [any AnalyticsProvider]
    private let state: Lock<State>
    /// Mirrors `state.consent == .granted` so that `track` skips the lock while analytics is
    /// off (the common case). Written under the lock; the lock is taken, and consent checked
    /// again, before anything reaches a provider.
    private let granted = Atomic<Bool>(false)
    /// A test's own sink; nil for the process-wide one (`TrackingSystem.setBreadcrumbSink`).
    private let breadcrumbs: (any BreadcrumbSink)?

    private struct State {
        var consent: AnalyticsConsent
        var epoch: UInt64
        var installID: String?
    }

    /// A tracker for `stateDirectory` (the crash reporter's, `StateDirectory.resolve`). Reads the
    /// analytics choice first; when it is not `granted`, deletes anything analytics left there.
    public convenience init(stateDirectory: String, providers: [any AnalyticsProvider] = []) {
        self.init(stateDirectory: stateDirectory, providers: providers, breadcrumbs: nil)
    }

    init(stateDirectory: String?, providers: [any AnalyticsProvider], breadcrumbs: (any BreadcrumbSink)?) {
        self.stateDirectory = stateDirectory
        self.providers = providers
        self.breadcrumbs = breadcrumbs
        guard let stateDirectory else {
            self.state = Lock(State(consent: .unknown, epoch: 0, installID: nil))
            return
        }
        let record = AnalyticsConsent.storedRecord(stateDirectory: stateDirectory)
        var installID: String?
        if record.consent == .granted {
            installID = AnalyticsDirectory.readInstallID(stateDirectory)
        } else {
            // A crash between storing a revocation and purging, or a damaged file: purge now.
            AnalyticsDirectory.purge(stateDirectory)
        }
        self.state = Lock(State(consent: record.consent, epoch: record.epoch, installID: installID))
        granted.store(record.consent == .granted, ordering: .releasing)
        for provider in providers {
            provider.consentChanged(to: record.consent, epoch: record.epoch, farewell: nil)
        }
    }

    /// Breadcrumbs only, no analytics: what `TrackingSystem` uses until it is bootstrapped.
    public static func breadcrumbsOnly() -> Tracker {
        Tracker(stateDirectory: nil, providers: [], breadcrumbs: nil)
    }

    // MARK: Tracking

    /// Tracks `event`: a breadcrumb through the breadcrumb sink (the crash reporter's ring keeps
    /// category `tracking`, the name, and the first four parameters by key, scrubbed), and with
    /// analytics consent an `AnalyticsEvent` to each
    /// provider. An event whose name breaks `EventName`'s rule is dropped (a diagnostic in debug
    /// builds). Callable from any thread or task; it never waits on the network.
    @inlinable
    public func track(_ event: some TrackingEvent) {
        track(name: event.name, parameters: event.parameters)
    }

    /// `track(_:)` after the generic part, which is inlined into the caller.
    @usableFromInline
    func track(name: String, parameters: [String: TrackingValue]) {
        if let problem = EventName.problem(name) {
            Diagnostics.report("dropped event with \(problem.rawValue): \(Scrubber.scrub(name, maxBytes: 80))")
            return
        }
        if let breadcrumbs {
            if breadcrumbs.isRecording { breadcrumbs.record(name: name, parameters: parameters) }
        } else {
            BreadcrumbSinkSlot.withSink { sink in
                if sink.isRecording { sink.record(name: name, parameters: parameters) }
            }
        }
        guard !providers.isEmpty, let stamp = analyticsStamp() else { return }
        let analyticsEvent = AnalyticsEvent(
            uuid: .fast(), name: name, parameters: Self.scrubbed(parameters), occurredAt: AnalyticsEvent.currentTime(),
            installID: stamp.installID, consentEpoch: stamp.epoch)
        for provider in providers { provider.receive(analyticsEvent) }
    }

    /// The install id and epoch when consent is granted, making the id with the first event.
    private func analyticsStamp() -> (installID: String, epoch: UInt64)? {
        guard granted.load(ordering: .acquiring) else { return nil }
        return state.withLock { state -> (String, UInt64)? in
            guard state.consent == .granted, let stateDirectory else { return nil }
            if let id = state.installID { return (id, state.epoch) }
            do {
                let id = try AnalyticsDirectory.createInstallID(stateDirectory)
                state.installID = id
                return (id, state.epoch)
            } catch {
                Diagnostics.report("cannot store the install id: \(error)")
                return nil
            }
        }
    }

    static func scrubbed(_ parameters: [String: TrackingValue]) -> [String: TrackingValue] {
        if parameters.isEmpty { return parameters }
        var out = parameters
        for (key, value) in parameters {
            if case .string(let text) = value { out[key] = .string(Scrubber.scrub(text)) }
        }
        return out
    }

    // MARK: Consent

    /// The analytics choice in force.
    public var analyticsConsent: AnalyticsConsent { state.withLock { $0.consent } }

    /// The install id, nil until the first event after a grant. Show it (for a deletion request)
    /// before revoking: revoking deletes it.
    public var installID: String? { state.withLock { $0.installID } }

    /// Grants or revokes analytics consent and stores the choice.
    ///
    /// Granting starts a new consent epoch, tells the providers, then tracks
    /// `analytics_opted_in`. Revoking sends `analytics_opted_out` straight to the providers as
    /// their farewell (so opt-outs can be counted), then deletes the install id and every unsent
    /// event and cancels pending retries. Setting the choice in force again changes nothing.
    /// Never touches the crash-reporting choice.
    public func setAnalyticsConsent(granted: Bool) throws {
        guard let stateDirectory else { throw TrackingError.noStateDirectory }
        let newlyGranted = try state.withLock { state -> Bool in
            if granted {
                guard state.consent != .granted else { return false }
                let epoch = state.epoch + 1
                try AnalyticsConsent.granted.store(epoch: epoch, stateDirectory: stateDirectory)
                state.consent = .granted
                state.epoch = epoch
                self.granted.store(true, ordering: .releasing)
                for provider in providers { provider.consentChanged(to: .granted, epoch: epoch, farewell: nil) }
                return true
            }
            guard state.consent != .denied else { return false }
            // Made before the guard closes, in the epoch it ends, with the install id it held
            // (kept in memory only: the file goes below).
            let farewell =
                state.consent == .granted
                ? AnalyticsEvent(
                    uuid: .fast(), name: Self.optedOutEventName, parameters: [:],
                    occurredAt: AnalyticsEvent.currentTime(),
                    installID: state.installID ?? UUIDBytes.random().description, consentEpoch: state.epoch)
                : nil
            try AnalyticsConsent.denied.store(epoch: state.epoch, stateDirectory: stateDirectory)
            state.consent = .denied
            state.installID = nil
            self.granted.store(false, ordering: .releasing)
            for provider in providers {
                provider.consentChanged(to: .denied, epoch: state.epoch, farewell: farewell)
            }
            AnalyticsDirectory.purge(stateDirectory)
            return false
        }
        if newlyGranted { track(NamedEvent(Self.optedInEventName)) }
    }

    // MARK: Delivery

    /// Asks every provider to send what it holds now.
    public func flush() async {
        for provider in providers { await provider.flush() }
    }

    /// Lets every provider send what it can within `timeout` (all together), then stop.
    public func shutdown(within timeout: Duration = .seconds(5)) async {
        await withTaskGroup(of: Void.self) { group in
            for provider in providers {
                group.addTask { await provider.shutdown(within: timeout) }
            }
        }
    }
}

/// Errors of the tracking façade.
public enum TrackingError: Error, Equatable, Sendable {
    /// The breadcrumbs-only tracker has no state directory to store a consent choice in.
    case noStateDirectory
}
