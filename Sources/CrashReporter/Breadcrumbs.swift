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
        withArguments(message, category, level, data) { level, c, cl, m, ml, pairs, pl in
            scr_breadcrumb_record(level, c, cl, m, ml, pairs, pl)
        }
    }

    /// Records one breadcrumb whose pairs `build` appends (with the same bounds and scrubbing
    /// as `data`), so that a caller holding its pairs in another shape (a tracked event's
    /// parameters) packs them without building an array first.
    public static func record(
        _ message: String,
        category: String = "default",
        level: BreadcrumbLevel = .info,
        pairs build: (inout BreadcrumbPairs) -> Void
    ) {
        withBytes(category) { c in
            withBytes(message) { m in
                PairBlob.withPairs(build) { blob in
                    scr_breadcrumb_record(
                        level.rawValue, c.cString, c.count, m.cString, m.count, blob.baseAddress, blob.count)
                }
            }
        }
    }

    /// Records into another ring than the handler's (tests, benchmarks).
    static func record(
        into ring: OpaquePointer, _ message: String, category: String = "default", level: BreadcrumbLevel = .info,
        data: [(key: String, value: String)] = []
    ) {
        withArguments(message, category, level, data) { level, c, cl, m, ml, pairs, pl in
            scr_ring_record(ring, level, c, cl, m, ml, pairs, pl)
        }
    }

    /// The C arguments of a breadcrumb: UTF-8 pointers into the strings and the packed, scrubbed
    /// pairs, valid for the duration of `body`.
    @inline(__always)
    private static func withArguments(
        _ message: String, _ category: String, _ level: BreadcrumbLevel, _ data: [(key: String, value: String)],
        _ body: (UInt8, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int, UnsafePointer<UInt8>?, Int) -> Void
    ) {
        withBytes(category) { c in
            withBytes(message) { m in
                if data.isEmpty {
                    body(level.rawValue, c.cString, c.count, m.cString, m.count, nil, 0)
                } else {
                    PairBlob.withPacked(data) { blob in
                        body(level.rawValue, c.cString, c.count, m.cString, m.count, blob.baseAddress, blob.count)
                    }
                }
            }
        }
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

/// The pairs of one breadcrumb being packed, on the stack, for the C ring: each appended key
/// and scrubbed value, up to four pairs. Only `Breadcrumbs.record(_:category:level:pairs:)`
/// makes one, for the duration of its closure.
public struct BreadcrumbPairs: ~Copyable {
    fileprivate let buffer: UnsafeMutableBufferPointer<UInt8>
    fileprivate var used = 0
    fileprivate var count = 0

    fileprivate init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Whether four pairs are in: more would be ignored, so a caller can stop building them.
    public var isFull: Bool { count >= Int(SCR_MAX_PAIRS) }

    /// Adds a pair; past the fourth, pairs are ignored. The key is cut to 31 bytes and the
    /// value, scrubbed first, to 95.
    public mutating func append(key: String, value: String) {
        guard count < Int(SCR_MAX_PAIRS) else { return }
        Breadcrumbs.withBytes(key) { PairBlob.append($0, limit: PairBlob.keyBytes, to: buffer, at: &used) }
        // The value's own bytes when nothing in it could be personal data: no string is made.
        Scrubber.withScrubbedBytes(value, maxBytes: Scrubber.defaultMaxBytes) {
            PairBlob.append($0, limit: PairBlob.valueBytes, to: buffer, at: &used)
        }
        count += 1
    }
}

/// Packs key/value pairs as the C ring expects them (uint16 length + bytes each), on the
/// stack, scrubbing each value on the way. Each string is cut one byte past its bound, which
/// is all the C side needs to cut it again on a character boundary; the whole blob stays small
/// enough (528 bytes) for a stack allocation.
enum PairBlob {
    static let keyBytes = Int(SCR_KEY_MAX) + 1
    static let valueBytes = Int(SCR_VALUE_MAX) + 1
    static let capacity = Int(SCR_MAX_PAIRS) * (2 + keyBytes + 2 + valueBytes)

    static func withPacked<R>(_ pairs: [(key: String, value: String)], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withPairs(
            { packed in
                pairs.withUnsafeBufferPointer { pairs in
                    for index in 0..<Swift.min(pairs.count, Int(SCR_MAX_PAIRS)) {
                        packed.append(key: pairs[index].key, value: pairs[index].value)
                    }
                }
            }, body)
    }

    @inline(__always)
    static func withPairs<R>(_ build: (inout BreadcrumbPairs) -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var pairs = BreadcrumbPairs(buffer: buffer)
            build(&pairs)
            return body(UnsafeBufferPointer(rebasing: buffer[0..<pairs.used]))
        }
    }

    /// Appends a uint16 length and at most `limit` of `bytes` (the C side cuts again, on a
    /// character boundary).
    @inline(__always)
    static func append(
        _ bytes: UnsafeBufferPointer<UInt8>, limit: Int, to buffer: UnsafeMutableBufferPointer<UInt8>,
        at used: inout Int
    ) {
        let n = Swift.min(bytes.count, limit)
        buffer[used] = UInt8(truncatingIfNeeded: n)
        buffer[used + 1] = 0
        if n > 0, let source = bytes.baseAddress, let target = buffer.baseAddress {
            (target + used + 2).update(from: source, count: n)
        }
        used += 2 + n
    }
}
