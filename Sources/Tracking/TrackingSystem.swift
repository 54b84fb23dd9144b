import CrashReporterSupport
import Synchronization

/// The process-wide tracker behind `track(_:)`, set once at startup like swift-log's
/// `LoggingSystem`. Until then, a breadcrumbs-only tracker (no analytics) answers.
public enum TrackingSystem {
    /// Whether `bootstrap` was called; taken only by the (rare) writers.
    private static let bootstrapped = Lock(false)

    /// The tracker in force, read by every `track(_:)` with one atomic load instead of a lock
    /// and a retain. Every tracker ever installed is retained for the rest of the process and
    /// never released, so a reader that loaded the old pointer just before a replacement still
    /// holds a live object. In production that is two objects (the default and the
    /// bootstrapped one); only tests replace the tracker more often.
    private static let current = Atomic<UInt>(install(.breadcrumbsOnly()))

    private static func install(_ tracker: Tracker) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(tracker).toOpaque())
    }

    /// Installs `tracker` for the whole process. Call it once, early; a second call is a
    /// programming error and traps.
    public static func bootstrap(_ tracker: Tracker) {
        bootstrapped.withLock { bootstrapped in
            precondition(!bootstrapped, "TrackingSystem.bootstrap may only be called once per process")
            bootstrapped = true
            current.store(install(tracker), ordering: .releasing)
        }
    }

    /// For tests: replaces the tracker any number of times.
    static func bootstrapInternal(_ tracker: Tracker) {
        bootstrapped.withLock { bootstrapped in
            bootstrapped = true
            current.store(install(tracker), ordering: .releasing)
        }
    }

    /// Plugs in where every tracked event goes as a breadcrumb (`CrashReporter.start` plugs in the
    /// crash reporter's ring). Until a sink is set, `track(_:)` records no breadcrumb. Replacing
    /// it is allowed; every sink ever set stays alive for the rest of the process.
    public static func setBreadcrumbSink(_ sink: any BreadcrumbSink) {
        BreadcrumbSinkSlot.install(sink)
    }

    /// The tracker `track(_:)` uses.
    public static var tracker: Tracker { unmanagedTracker.takeUnretainedValue() }

    private static var unmanagedTracker: Unmanaged<Tracker> {
        // Never zero: `current` starts with the breadcrumbs-only tracker.
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: current.load(ordering: .acquiring))!)
    }

    /// `track(_:)` after the generic part: the installed tracker, borrowed without a retain
    /// (installed trackers are never released).
    @usableFromInline
    static func track(name: String, parameters: [String: TrackingValue]) {
        unmanagedTracker._withUnsafeGuaranteedRef { $0.track(name: name, parameters: parameters) }
    }
}

/// Tracks `event` through the process-wide tracker (`TrackingSystem`). Callable from any
/// thread or task; returns without waiting on disk or network beyond one append.
@inlinable
public func track(_ event: some TrackingEvent) {
    TrackingSystem.track(name: event.name, parameters: event.parameters)
}
