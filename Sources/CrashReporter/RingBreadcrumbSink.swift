import Tracking

/// The tracking façade's breadcrumbs, kept in the crash reporter's ring: `CrashReporter.start`
/// plugs it into `TrackingSystem`. A tracked event becomes a breadcrumb with category `tracking`,
/// the event's name as its message, and its parameters as data, handed straight from the
/// dictionary to `BreadcrumbPairs` (which bounds and scrubs them as `Breadcrumbs.record`
/// does) without building an array first.
struct RingBreadcrumbSink: BreadcrumbSink {
    /// The ring keeps four pairs per breadcrumb.
    static let maxPairs = 4

    /// One atomic load: false before start, after an opt-out, or with a capacity of 0.
    var isRecording: Bool { Breadcrumbs.isRecording }

    func record(name: String, parameters: [String: TrackingValue]) {
        Breadcrumbs.record(name, category: "tracking") { pairs in
            if parameters.count <= Self.maxPairs {
                for (key, value) in parameters { pairs.append(key: key, value: value.text) }
            } else {
                for (key, value) in Self.kept(parameters) { pairs.append(key: key, value: value.text) }
            }
        }
    }

    /// The pairs the ring keeps when an event has more than four: the first four by key, so
    /// that the choice is the same every time.
    static func kept(_ parameters: [String: TrackingValue]) -> [(key: String, value: TrackingValue)] {
        parameters.sorted { $0.key < $1.key }.prefix(maxPairs).map { (key: $0.key, value: $0.value) }
    }

    /// What `record` hands over, as the array `Breadcrumbs.record(_:category:level:data:)` takes: the
    /// reference that the tests hold the closure path to.
    static func data(_ parameters: [String: TrackingValue]) -> [(key: String, value: String)] {
        let pairs = parameters.count <= maxPairs ? parameters.map { (key: $0.key, value: $0.value) } : kept(parameters)
        return pairs.map { (key: $0.key, value: $0.value.text) }
    }
}
