import Synchronization

/// Where every tracked event goes as an anonymous breadcrumb, whatever the analytics choice.
///
/// The façade keeps no breadcrumbs itself: a library that only tracks events links nothing of
/// the crash handler. The service plugs the crash reporter's ring in at start
/// (`CrashReporter.start` does it), or its own sink with ``TrackingSystem/setBreadcrumbSink(_:)``.
/// Until then, and after an opt-out, `track(_:)` records no breadcrumb.
///
/// Rules for an implementation:
/// - `isRecording` is read on every `track(_:)`: make it one load, no lock.
/// - `record(name:parameters:)` runs on the tracking thread: never wait, never block on I/O.
/// - The sink bounds and scrubs what it keeps (``Scrubber``): the values come straight from the
///   service's event.
public protocol BreadcrumbSink: Sendable {
    /// Whether a breadcrumb recorded now would be kept; when false, `track(_:)` skips the call.
    var isRecording: Bool { get }

    /// Records one tracked event: its name and its parameters, unscrubbed.
    func record(name: String, parameters: [String: TrackingValue])
}

/// The process-wide sink, read by every `track(_:)` with one atomic load. Like the tracker slot,
/// each installed sink is retained for the rest of the process, so a reader that loaded the
/// old one just before a replacement still holds a live object.
enum BreadcrumbSinkSlot {
    private final class Box: Sendable {
        let sink: any BreadcrumbSink
        init(_ sink: any BreadcrumbSink) { self.sink = sink }
    }

    private static let current = Atomic<UInt>(0)

    static func install(_ sink: any BreadcrumbSink) {
        let box = UInt(bitPattern: Unmanaged.passRetained(Box(sink)).toOpaque())
        current.store(box, ordering: .releasing)
    }

    /// Calls `body` with the installed sink, if any, borrowed without a retain.
    @inline(__always)
    static func withSink(_ body: (any BreadcrumbSink) -> Void) {
        let bits = current.load(ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return }
        Unmanaged<Box>.fromOpaque(pointer)._withUnsafeGuaranteedRef { body($0.sink) }
    }
}
