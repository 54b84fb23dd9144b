import Foundation

/// The events API's JSON (seed 002 §4), written by hand: one event is encoded on the thread
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
        var keys = event.parameters.keys.filter { !$0.isEmpty && Self.characterCount($0, atMost: maxKeyLength) }
            .sorted()
        if keys.count > maxProperties { keys.removeLast(keys.count - maxProperties) }
        while true {
            var out = JSONWriter()
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
            for key in keys {
                guard let value = event.parameters[key] else { continue }
                if case .string(let s) = value, !Self.characterCount(s, atMost: maxStringValueLength) { continue }
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
            if out.bytes.count <= maxEventBytes { return out.bytes }
            if keys.isEmpty { return nil }
            keys.removeLast()
        }
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

    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
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
        bytes.append(UInt8(ascii: "\""))
    }

    /// A UUID as a lowercase JSON string, without Foundation's formatter.
    mutating func uuid(_ id: UUID) {
        bytes.append(UInt8(ascii: "\""))
        appendHex(id)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The 36 lowercase characters of a UUID, written in one append.
    mutating func appendHex(_ id: UUID) {
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes of room
        withUnsafeMutableBytes(of: &text) { out in
            withUnsafeBytes(of: id.uuid) { raw in
                var o = 0
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[o] = UInt8(ascii: "-")
                        o += 1
                    }
                    out[o] = Self.hexDigit(raw[i] >> 4)
                    out[o + 1] = Self.hexDigit(raw[i] & 0xF)
                    o += 2
                }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: out[0..<36]))
            }
        }
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

    static func append(_ date: Date, to out: inout [UInt8]) {
        // Whole milliseconds first: splitting the Double would turn .512 into .511.
        let totalMillis = Int((date.timeIntervalSince1970 * 1000).rounded())
        var (secondsPart, millis) = totalMillis.quotientAndRemainder(dividingBy: 1000)
        if millis < 0 {
            millis += 1000
            secondsPart -= 1
        }
        var seconds = time_t(secondsPart)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func put(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var v = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8((v / divisor) % 10))
                v %= divisor
                divisor /= 10
            }
        }
        put(Int(parts.tm_year) + 1900, 4)
        out.append(UInt8(ascii: "-"))
        put(Int(parts.tm_mon) + 1, 2)
        out.append(UInt8(ascii: "-"))
        put(Int(parts.tm_mday), 2)
        out.append(UInt8(ascii: "T"))
        put(Int(parts.tm_hour), 2)
        out.append(UInt8(ascii: ":"))
        put(Int(parts.tm_min), 2)
        out.append(UInt8(ascii: ":"))
        put(Int(parts.tm_sec), 2)
        out.append(UInt8(ascii: "."))
        put(millis, 3)
        out.append(UInt8(ascii: "Z"))
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
