import CrashReporter
import Foundation
import Synchronization
import Tracking

/// The comparison point for the breadcrumb ring: the same records, with the same scrubbing,
/// in a ring of the same capacity guarded by a `Synchronization.Mutex`.
final class MutexRing: Sendable {
    struct Record {
        var timestampMs: UInt64
        var level: BreadcrumbLevel
        var category: String
        var message: String
        var data: [(key: String, value: String)]
    }

    private struct Storage {
        var slots: [Record?]
        var next = 0
    }

    private let storage: Mutex<Storage>

    init(capacity: Int) {
        storage = Mutex(Storage(slots: Array(repeating: nil, count: capacity)))
    }

    func record(_ message: String, category: String, level: BreadcrumbLevel, data: [(key: String, value: String)]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)  // the clock the C ring uses
        let record = Record(
            timestampMs: UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000, level: level,
            category: category, message: message,
            data: data.map { (key: $0.key, value: Scrubber.scrub($0.value)) })
        storage.withLock { storage in
            storage.slots[storage.next % storage.slots.count] = record
            storage.next += 1
        }
    }

    var count: Int { storage.withLock { $0.slots.count { $0 != nil } } }
}
