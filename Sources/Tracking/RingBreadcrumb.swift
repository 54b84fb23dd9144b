import CrashReporter

/// A tracked event as a breadcrumb in the crash reporter's ring, without building the
/// `[(key:, value:)]` array that `Breadcrumbs.record(_:category:level:data:)` takes: the pairs
/// go from the event's parameters straight into `BreadcrumbPairs`, which packs and scrubs them
/// as that API does. What reaches the ring is what
/// `Breadcrumbs.record(name, category: "tracking", data: Tracker.breadcrumbData(parameters))`
/// records: the same pairs in the same order.
enum RingBreadcrumb {
    static let maxPairs = 4

    /// Whether a breadcrumb recorded now would be kept.
    @inline(__always)
    static var isEnabled: Bool { Breadcrumbs.isRecording }

    static func record(_ name: String, _ parameters: [String: TrackingValue]) {
        Breadcrumbs.record(name, category: "tracking") { pairs in
            if parameters.count <= maxPairs {
                for (key, value) in parameters { pairs.append(key: key, value: value.text) }
            } else {
                // The ring keeps four pairs: the first four by key, as `breadcrumbData` takes them.
                for (key, value) in parameters.sorted(by: { $0.key < $1.key }).prefix(maxPairs) {
                    pairs.append(key: key, value: value.text)
                }
            }
        }
    }
}
