import Synchronization

/// The process-wide tracker behind `track(_:)`, set once at startup like swift-log's
/// `LoggingSystem`. Until then, a breadcrumbs-only tracker (no analytics) answers.
public enum TrackingSystem {
    private struct Slot: Sendable {
        var tracker: Tracker
        var bootstrapped: Bool
    }

    private static let slot = Mutex(Slot(tracker: .breadcrumbsOnly(), bootstrapped: false))

    /// Installs `tracker` for the whole process. Call it once, early; a second call is a
    /// programming error and traps.
    public static func bootstrap(_ tracker: Tracker) {
        slot.withLock { slot in
            precondition(!slot.bootstrapped, "TrackingSystem.bootstrap may only be called once per process")
            slot = Slot(tracker: tracker, bootstrapped: true)
        }
    }

    /// For tests: replaces the tracker any number of times.
    static func bootstrapInternal(_ tracker: Tracker) {
        slot.withLock { $0 = Slot(tracker: tracker, bootstrapped: true) }
    }

    /// The tracker `track(_:)` uses.
    public static var tracker: Tracker { slot.withLock { $0.tracker } }
}

/// Tracks `event` through the process-wide tracker (`TrackingSystem`). Callable from any
/// thread or task; returns without waiting on disk or network beyond one append.
public func track(_ event: some TrackingEvent) {
    TrackingSystem.tracker.track(event)
}
