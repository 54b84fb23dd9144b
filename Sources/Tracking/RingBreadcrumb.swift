import CCrashReporter
import CrashReporter

/// A tracked event as a breadcrumb in the crash reporter's ring, without the
/// `[(key:, value:)]` array that `Breadcrumbs.record` takes: the pairs go from the event's
/// parameters straight into a packed blob on the stack. What reaches the ring is what
/// `Breadcrumbs.record(name, category: "tracking", data: Tracker.breadcrumbData(parameters))`
/// records: the same pairs in the same order, each value scrubbed (`Scrubber.scrub`) and
/// every string cut one byte past its bound, which the C side cuts again on a character
/// boundary.
enum RingBreadcrumb {
    static let keyBytes = Int(SCR_KEY_MAX) + 1
    static let valueBytes = Int(SCR_VALUE_MAX) + 1
    static let maxPairs = Int(SCR_MAX_PAIRS)
    static let capacity = maxPairs * (2 + keyBytes + 2 + valueBytes)
    static let category: StaticString = "tracking"

    /// Whether a breadcrumb recorded now would be kept.
    @inline(__always)
    static var isEnabled: Bool { scr_breadcrumbs_enabled() != 0 }

    static func record(_ name: String, _ parameters: [String: TrackingValue]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var used = 0
            if parameters.count <= maxPairs {
                for (key, value) in parameters { append(key, value, to: buffer, at: &used) }
            } else {
                // The ring keeps four pairs: the first four by key, as `breadcrumbData` takes them.
                for (key, value) in parameters.sorted(by: { $0.key < $1.key }).prefix(maxPairs) {
                    append(key, value, to: buffer, at: &used)
                }
            }
            withBytes(name) { message in
                category.withUTF8Buffer { category in
                    scr_breadcrumb_record(
                        BreadcrumbLevel.info.rawValue, cString(category), category.count, cString(message),
                        message.count, used == 0 ? nil : UnsafePointer(buffer.baseAddress), used)
                }
            }
        }
    }

    @inline(__always)
    private static func append(
        _ key: String, _ value: TrackingValue, to buffer: UnsafeMutableBufferPointer<UInt8>, at used: inout Int
    ) {
        append(key, limit: keyBytes, to: buffer, at: &used)
        append(Scrubber.scrub(value.text), limit: valueBytes, to: buffer, at: &used)
    }

    /// Appends a uint16 length and at most `limit` bytes of `string`.
    @inline(__always)
    private static func append(
        _ string: String, limit: Int, to buffer: UnsafeMutableBufferPointer<UInt8>, at used: inout Int
    ) {
        withBytes(string) { bytes in
            let n = Swift.min(bytes.count, limit)
            buffer[used] = UInt8(truncatingIfNeeded: n)
            buffer[used + 1] = 0
            if n > 0, let source = bytes.baseAddress, let target = buffer.baseAddress {
                (target + used + 2).update(from: source, count: n)
            }
            used += 2 + n
        }
    }

    /// The string's UTF-8 bytes, in place when it is stored contiguously (literals and native
    /// strings), else from a contiguous copy.
    @inline(__always)
    private static func withBytes(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if string.utf8.withContiguousStorageIfAvailable(body) == nil {
            var copy = string
            copy.withUTF8(body)
        }
    }

    @inline(__always)
    private static func cString(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
        bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
    }
}
