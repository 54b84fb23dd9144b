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
        var keys = event.parameters.keys.filter { !$0.isEmpty && $0.count <= maxKeyLength }.sorted()
        if keys.count > maxProperties { keys.removeLast(keys.count - maxProperties) }
        while true {
            var out = JSONWriter()
            out.raw("{\"event_id\":")
            out.string(event.id.uuidString.lowercased())
            out.raw(",\"name\":")
            out.string(event.name)
            out.raw(",\"anonymous_id\":")
            out.string(event.installID)
            out.raw(",\"occurred_at\":")
            out.string(Timestamp.iso8601(event.occurredAt))
            out.raw(",\"properties\":{")
            var first = true
            for key in keys {
                guard let value = event.parameters[key] else { continue }
                if case .string(let s) = value, s.count > maxStringValueLength { continue }
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

    init() { bytes.reserveCapacity(256) }

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hex[Int(b >> 4)])
                bytes.append(hex[Int(b & 0xF)])
            default: bytes.append(b)
            }
        }
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
        // Whole milliseconds first: splitting the Double would turn .512 into .511.
        let totalMillis = Int((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(totalMillis.quotientAndRemainder(dividingBy: 1000).quotient)
        var millis = totalMillis.quotientAndRemainder(dividingBy: 1000).remainder
        if millis < 0 {
            millis += 1000
            seconds -= 1
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out = [UInt8]()
        out.reserveCapacity(24)
        func put(_ value: Int, _ width: Int) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var v = value
            for i in stride(from: width - 1, through: 0, by: -1) {
                digits[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
            out.append(contentsOf: digits)
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
        return String(decoding: out, as: UTF8.self)
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
