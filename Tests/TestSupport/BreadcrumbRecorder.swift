import CrashReporterSupport
import Tracking

/// Breadcrumbs a tracker recorded, for tests that do not touch the global ring.
public final class BreadcrumbRecorder: BreadcrumbSink {
    public struct Crumb: Sendable, Equatable {
        public var message: String
        public var data: [String]
    }
    private let crumbs = Lock<[Crumb]>([])
    public let enabled: Bool

    public init(enabled: Bool = true) { self.enabled = enabled }

    public var isRecording: Bool { enabled }

    public func record(name: String, parameters: [String: TrackingValue]) {
        crumbs.withLock { $0.append(Crumb(message: name, data: parameters.map { "\($0.key)=\($0.value.text)" })) }
    }

    public var all: [Crumb] { crumbs.withLock { $0 } }
}
