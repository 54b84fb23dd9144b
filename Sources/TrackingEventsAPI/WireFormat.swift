import Foundation
import Synchronization
import Tracking

/// The events API's JSON (docs/events-api.md §3), written by hand: one event is encoded on the thread
/// that tracks it, so it has to cost about a microsecond, not a JSONEncoder.
enum WireFormat {
    static let maxEventBytes = 8 * 1024
    static let maxBodyBytes = 1_000_000
    static let maxProperties = 50
    static let maxKeyLength = 64
    static let maxStringValueLength = 1024

    /// The event as one JSON object, or nil when even without properties it exceeds 8 KB.
    /// Properties beyond the 50th (by key), keys outside 1–64 characters and strings over
    /// 1,024 characters are left out; when the event would pass 8 KB, properties are left out
    /// from the last key backwards until it fits.
    static func encode(_ event: AnalyticsEvent, context: [UInt8]) -> [UInt8]? {
        var out = JSONWriter(capacity: 256 + context.count)
        guard encode(event, context: context, into: &out) else { return nil }
        return out.bytes
    }

    /// The event as its queue line (`<epoch> <event_id> <json>\n`), encoded once into the
    /// bytes the queue writes; nil as for `encode(_:context:)`.
    static func queuedEvent(_ event: AnalyticsEvent, context: [UInt8]) -> QueuedEvent? {
        var out = JSONWriter(capacity: 320 + context.count)
        QueuedEvent.appendPrefix(epoch: event.consentEpoch, id: event.id, to: &out)
        let jsonStart = out.bytes.count
        guard encode(event, context: context, into: &out) else { return nil }
        out.byte(UInt8(ascii: "\n"))
        return QueuedEvent(id: event.id, epoch: event.consentEpoch, line: out.bytes, jsonStart: jsonStart)
    }

    /// Appends the event's JSON to `out`; false, with `out` as it was, when it does not fit.
    static func encode(_ event: AnalyticsEvent, context: [UInt8], into out: inout JSONWriter) -> Bool {
        let start = out.bytes.count
        // The common event has at most one property: no array to sort it in.
        if event.parameters.count <= 1 {
            if let (key, value) = event.parameters.first, isSendable(key: key, value: value) {
                encodeObject(event, CollectionOfOne((key: key, value: value)), context: context, into: &out)
                if out.bytes.count - start <= maxEventBytes { return true }
                out.bytes.removeSubrange(start...)
            }
            encodeObject(event, EmptyCollection(), context: context, into: &out)
            if out.bytes.count - start <= maxEventBytes { return true }
            out.bytes.removeSubrange(start...)
            return false
        }
        var properties: [(key: String, value: TrackingValue)] = []
        properties.reserveCapacity(event.parameters.count)
        for (key, value) in event.parameters where isSendable(key: key, value: value) {
            properties.append((key, value))
        }
        if properties.count > 1 { properties.sort { $0.key < $1.key } }
        if properties.count > maxProperties { properties.removeLast(properties.count - maxProperties) }
        while true {
            encodeObject(event, properties, context: context, into: &out)
            if out.bytes.count - start <= maxEventBytes { return true }
            out.bytes.removeSubrange(start...)
            if properties.isEmpty { return false }
            properties.removeLast()
        }
    }

    /// Keys of 1–64 characters, strings of at most 1,024.
    @inline(__always)
    private static func isSendable(key: String, value: TrackingValue) -> Bool {
        guard !key.isEmpty, characterCount(key, atMost: maxKeyLength) else { return false }
        if case .string(let s) = value, !characterCount(s, atMost: maxStringValueLength) { return false }
        return true
    }

    private static func encodeObject(
        _ event: AnalyticsEvent, _ properties: some Sequence<(key: String, value: TrackingValue)>,
        context: [UInt8], into out: inout JSONWriter
    ) {
        out.raw("{\"event_id\":")
        out.uuid(event.id)
        out.raw(",\"name\":")
        out.string(event.name)
        out.raw(",\"anonymous_id\":")
        out.string(event.installID)
        out.raw(",\"occurred_at\":")
        out.timestamp(event.occurredAt)
        out.raw(",\"properties\":{")
        var first = true
        for (key, value) in properties {
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            out.string(key)
            out.byte(UInt8(ascii: ":"))
            out.value(value)
        }
        out.raw("}")
        if !context.isEmpty {
            out.raw(",\"context\":")
            out.bytes.append(contentsOf: context)
        }
        out.raw("}")
    }

    /// Whether `s` has at most `limit` characters, without counting them when its UTF-8 length
    /// already says so.
    @inline(__always)
    static func characterCount(_ s: String, atMost limit: Int) -> Bool {
        s.utf8.count <= limit || s.count <= limit
    }

    /// `{"events":[…]}` from encoded events.
    static func batchBody<C: Collection>(_ events: C) -> Data where C.Element == [UInt8] {
        var body = [UInt8]()
        body.reserveCapacity(events.reduce(16) { $0 + $1.count + 1 })
        body.append(contentsOf: Array("{\"events\":[".utf8))
        var first = true
        for event in events {
            if !first { body.append(UInt8(ascii: ",")) }
            first = false
            body.append(contentsOf: event)
        }
        body.append(contentsOf: Array("]}".utf8))
        return Data(body)
    }

    /// The bytes `batchBody` adds around the events.
    static let batchOverhead = "{\"events\":[]}".utf8.count

    /// The context block: every value a string of at most 64 characters, empty ones left out.
    static func encodeContext(_ fields: [(key: String, value: String?)]) -> [UInt8] {
        var out = JSONWriter()
        out.raw("{")
        var first = true
        for (key, value) in fields {
            guard let value, !value.isEmpty else { continue }
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            out.string(key)
            out.byte(UInt8(ascii: ":"))
            out.string(String(value.prefix(64)))
        }
        out.raw("}")
        return first ? [] : out.bytes
    }
}

/// Appends JSON text to a byte array.
struct JSONWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// A decimal number, without making a String.
    mutating func unsigned(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var v = value
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[i...]))
        }
    }

    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Literals and native strings in place; others through a contiguous copy.
        if s.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var copy = s
            copy.withUTF8 { appendEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Most strings need no escaping: copy them in one go.
        var start = 0
        for i in 0..<utf8.count {
            let b = utf8[i]
            guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
            start = i + 1
            bytes.append(UInt8(ascii: "\\"))
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(b)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(Self.hexDigit(b >> 4))
                bytes.append(Self.hexDigit(b & 0xF))
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }

    /// A UUID as a lowercase JSON string, without Foundation's formatter.
    mutating func uuid(_ id: UUID) {
        bytes.append(UInt8(ascii: "\""))
        appendHex(id)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The 36 lowercase characters of a UUID, written in one append: two characters per byte
    /// from a table, without a branch per nibble.
    mutating func appendHex(_ id: UUID) {
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes of room
        withUnsafeMutableBytes(of: &text) { out in
            withUnsafeBytes(of: id.uuid) { raw in
                Self.hexPairs.withUnsafeBufferPointer { pairs in
                    var o = 0
                    for i in 0..<16 {
                        if i == 4 || i == 6 || i == 8 || i == 10 {
                            out[o] = UInt8(ascii: "-")
                            o += 1
                        }
                        out.storeBytes(of: pairs[Int(raw[i])], toByteOffset: o, as: (UInt8, UInt8).self)
                        o += 2
                    }
                }
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: out[0..<36]))
        }
    }

    /// The two lowercase hex characters of each byte value.
    private static let hexPairs: [(UInt8, UInt8)] = (0...255).map {
        (hexDigit(UInt8($0) >> 4), hexDigit(UInt8($0) & 0xF))
    }

    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// `"2026-10-23T12:04:31.512Z"`.
    mutating func timestamp(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        Timestamp.append(date, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func value(_ value: TrackingValue) {
        switch value {
        case .string(let s): string(s)
        case .int(let i): bytes.append(contentsOf: String(i).utf8)
        case .double(let d):
            // JSON has no NaN or infinity.
            if d.isFinite { bytes.append(contentsOf: String(d).utf8) } else { raw("null") }
        case .bool(let b): if b { raw("true") } else { raw("false") }
        }
    }
}

/// `2026-10-23T12:04:31.512Z`, without a formatter object.
enum Timestamp {
    static func iso8601(_ date: Date) -> String {
        var out = [UInt8]()
        append(date, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the 24 bytes of `date` in UTC. Pure arithmetic: `gmtime_r` takes glibc's time
    /// zone lock on every call.
    static func append(_ date: Date, to out: inout [UInt8]) {
        // Whole milliseconds first: splitting the Double would turn .512 into .511.
        let totalMillis = Int((date.timeIntervalSince1970 * 1000).rounded())
        var days = totalMillis / 86_400_000
        var millisOfDay = totalMillis % 86_400_000
        if millisOfDay < 0 {
            millisOfDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = cachedCivil(fromDays: days)
        let seconds = millisOfDay / 1000
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { buffer in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var v = value
                for i in stride(from: offset + width - 1, through: offset, by: -1) {
                    buffer[i] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
            }
            put(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(seconds / 3600, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(seconds / 60 % 60, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(seconds % 60, 2, at: 17)
            buffer[19] = UInt8(ascii: ".")
            put(millisOfDay % 1000, 3, at: 20)
            buffer[23] = UInt8(ascii: "Z")
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<24]))
        }
    }

    /// The last day converted, `days << 32 | year << 16 | month << 8 | day` (days 0 ..< 2^31,
    /// years 0 ..< 65,536), or all ones: events of one day share the calendar arithmetic.
    private static let lastDay = Atomic<UInt64>(.max)

    static func cachedCivil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        guard days >= 0, days < 1 << 31 else { return civil(fromDays: days) }
        let cached = lastDay.load(ordering: .relaxed)
        if cached != .max, cached >> 32 == UInt64(days) {
            return (Int(cached >> 16 & 0xFFFF), Int(cached >> 8 & 0xFF), Int(cached & 0xFF))
        }
        let (year, month, day) = civil(fromDays: days)
        if year >= 0, year < 1 << 16 {
            lastDay.store(
                UInt64(days) << 32 | UInt64(year) << 16 | UInt64(month) << 8 | UInt64(day), ordering: .relaxed)
        }
        return (year, month, day)
    }

    /// Year, month and day of the proleptic Gregorian calendar for days since 1970-01-01
    /// (the well-known era-based conversion: 400-year eras of 146,097 days).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form `Retry-After` uses.
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since 1970, nil when `text` is not an IMF-fixdate.
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2]))
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let h = Int(clock[0]), let m = Int(clock[1]), let s = Int(clock[2]) else { return nil }
        var t = tm()
        t.tm_year = Int32(year - 1900)
        t.tm_mon = Int32(month)
        t.tm_mday = Int32(day)
        t.tm_hour = Int32(h)
        t.tm_min = Int32(m)
        t.tm_sec = Int32(s)
        return Double(timegm(&t))
    }
}
