import CCrashReporter
import Tracking

/// How much a breadcrumb matters.
public enum BreadcrumbLevel: UInt8, Sendable, CaseIterable {
    /// Detail for debugging.
    case debug = 0
    /// Something the service did (the default).
    case info
    /// Something that went wrong and was handled.
    case warning
    /// Something that failed.
    case error
    /// Something the service cannot go on after.
    case fatal
}

/// Anonymous breadcrumbs: the last things the service did before a crash. Recording is
/// wait-free and callable from any thread or task; the newest `Options.breadcrumbCapacity`
/// are kept in memory and written into the report if the process crashes. Nothing is
/// recorded before `CrashReporter.start` or after the user opts out.
public enum Breadcrumbs {
    /// Whether a breadcrumb recorded now would be kept (false before `start`, after an
    /// opt-out, or with a capacity of 0): a caller can skip building its data. One atomic load.
    public static var isRecording: Bool { scr_breadcrumbs_enabled() != 0 }

    /// Records one breadcrumb. `category` is cut to 31 bytes, `message` to 127; at most four
    /// `data` pairs are kept, keys cut to 31 bytes and values to 95, and every value is
    /// scrubbed of e-mail addresses, IP addresses, card numbers and tokens first.
    public static func record(
        _ message: String,
        category: String = "default",
        level: BreadcrumbLevel = .info,
        data: [(key: String, value: String)] = []
    ) {
        record(into: nil, message, category: category, level: level, data: data)
    }

    /// Records one breadcrumb whose pairs `build` appends (with the same bounds and scrubbing
    /// as `data`), so that a caller holding its pairs in another shape (a tracked event's
    /// parameters) hands them over without building an array first. `build` is not called
    /// when no breadcrumb would be kept (`isRecording` is false).
    public static func record(
        _ message: String,
        category: String = "default",
        level: BreadcrumbLevel = .info,
        pairs build: (inout BreadcrumbPairs) -> Void
    ) {
        record(into: nil, message, category: category, level: level, pairs: build)
    }

    /// Records into `ring`, or the handler's when nil (another ring: tests, benchmarks).
    @inline(__always)
    static func record(
        into ring: OpaquePointer?, _ message: String, category: String = "default", level: BreadcrumbLevel = .info,
        data: [(key: String, value: String)] = []
    ) {
        record(into: ring, message, category: category, level: level) { pairs in
            for index in data.indices where !pairs.isFull {
                pairs.append(key: data[index].key, value: data[index].value)
            }
        }
    }

    /// Claims a slot in `ring` (nil: the handler's, while capture is on) with the strings, lets
    /// `build` write the pairs into it, and publishes it (scr_ring_begin, scr_ring_add_pair,
    /// scr_ring_publish): nothing is packed on the way.
    @inline(__always)
    private static func record(
        into ring: OpaquePointer?, _ message: String, category: String, level: BreadcrumbLevel,
        pairs build: (inout BreadcrumbPairs) -> Void
    ) {
        var claim = scr_ring_claim()
        withBytes(category) { c in
            withBytes(message) { m in
                claim =
                    if let ring {
                        scr_ring_begin(ring, level.rawValue, c.cString, c.count, m.cString, m.count)
                    } else {
                        scr_breadcrumb_begin(level.rawValue, c.cString, c.count, m.cString, m.count)
                    }
            }
        }
        guard let slot = claim.slot else { return }
        var pairs = BreadcrumbPairs(slot: slot)
        build(&pairs)
        scr_ring_publish(claim, UInt8(truncatingIfNeeded: pairs.count))
    }

    /// The string's UTF-8 bytes without copying when it is stored contiguously (literals and
    /// native strings: the common case), else from a contiguous copy.
    @inline(__always)
    static func withBytes(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if string.utf8.withContiguousStorageIfAvailable(body) == nil {
            var copy = string
            copy.withUTF8(body)
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    fileprivate var cString: UnsafePointer<CChar>? {
        baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
    }
}

/// The data pairs of one breadcrumb being recorded, written straight into its slot of the ring:
/// each appended key and scrubbed value, up to four pairs. Only
/// `Breadcrumbs.record(_:category:level:pairs:)` makes one, for the duration of its closure.
public struct BreadcrumbPairs: ~Copyable {
    fileprivate let slot: OpaquePointer
    fileprivate var count = 0

    fileprivate init(slot: OpaquePointer) {
        self.slot = slot
    }

    /// Whether four pairs are in: more would be ignored, so a caller can stop building them.
    public var isFull: Bool { count >= Int(SCR_MAX_PAIRS) }

    /// Adds a pair; past the fourth, pairs are ignored. The key is cut to 31 bytes and the
    /// value, scrubbed first, to 95 (on a character boundary).
    @inline(__always)
    public mutating func append(key: String, value: String) {
        guard count < Int(SCR_MAX_PAIRS) else { return }
        let index = UInt8(truncatingIfNeeded: count)
        // The value's own bytes when nothing in it could be personal data: no string is made.
        Scrubber.withScrubbedBytes(value, maxBytes: Scrubber.defaultMaxBytes) { v in
            Breadcrumbs.withBytes(key) { k in
                scr_ring_add_pair(slot, index, k.cString, k.count, v.cString, v.count)
            }
        }
        count += 1
    }
}
