import CrashReporterSupport
import Tracking

/// Encodes an event within `EventLimits`, whatever the backend's JSON: at most 50 properties
/// (the first by key), keys of 1–64 characters, strings of at most 1,024, the whole event at
/// most 8 KB (properties left out from the last key backwards until it fits). Written by hand:
/// one event is encoded on the thread that tracks it, so it has to cost about a microsecond, not
/// a JSONEncoder.
enum BoundedEventEncoder {

    /// Appends the event's JSON, as `writer` writes it, to `out`; false, with `out` as it was,
    /// when even without properties it does not fit.
    static func encode(
        _ event: AnalyticsEvent, id: UUIDBytes, with writer: some EventObjectWriter, into out: inout JSONWriter
    ) -> Bool {
        let start = out.bytes.count
        // The common event has at most one property: no array to sort it in.
        if event.parameters.count <= 1 {
            if let (key, value) = event.parameters.first, isSendable(key: key, value: value, writer) {
                writer.writeObject(event, id: id, properties: CollectionOfOne((key: key, value: value)), into: &out)
                if out.bytes.count - start <= EventLimits.maxEventBytes { return true }
                out.bytes.removeSubrange(start...)
            }
            writer.writeObject(event, id: id, properties: EmptyCollection(), into: &out)
            if out.bytes.count - start <= EventLimits.maxEventBytes { return true }
            out.bytes.removeSubrange(start...)
            return false
        }
        var properties: [(key: String, value: TrackingValue)] = []
        properties.reserveCapacity(event.parameters.count)
        for (key, value) in event.parameters where isSendable(key: key, value: value, writer) {
            properties.append((key, value))
        }
        if properties.count > 1 { properties.sort { $0.key < $1.key } }
        if properties.count > EventLimits.maxProperties {
            properties.removeLast(properties.count - EventLimits.maxProperties)
        }
        while true {
            writer.writeObject(event, id: id, properties: properties, into: &out)
            if out.bytes.count - start <= EventLimits.maxEventBytes { return true }
            out.bytes.removeSubrange(start...)
            if properties.isEmpty { return false }
            properties.removeLast()
        }
    }

    /// Keys of 1–64 characters that the writer allows, strings of at most 1,024.
    @inline(__always)
    private static func isSendable(key: String, value: TrackingValue, _ writer: some EventObjectWriter) -> Bool {
        guard !key.isEmpty, characterCount(key, atMost: EventLimits.maxPropertyKeyLength), writer.allows(key: key)
        else { return false }
        if case .string(let s) = value, !characterCount(s, atMost: EventLimits.maxPropertyStringLength) { return false }
        return true
    }

    /// Whether `s` has at most `limit` characters, without counting them when its UTF-8 length
    /// already says so.
    @inline(__always)
    static func characterCount(_ s: String, atMost limit: Int) -> Bool {
        s.utf8.count <= limit || s.count <= limit
    }

    /// Writes `{"key":value,…}` for the properties (values as `JSONWriter.trackingValue` writes them).
    static func writeProperties(
        _ properties: some Sequence<(key: String, value: TrackingValue)>, into out: inout JSONWriter,
        closing: Bool = true
    ) {
        out.byte(UInt8(ascii: "{"))
        var first = true
        for (key, value) in properties {
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            out.string(key)
            out.byte(UInt8(ascii: ":"))
            out.trackingValue(value)
        }
        if closing { out.byte(UInt8(ascii: "}")) }
    }

    /// `[e1,e2,…]` with `prefix` before and `suffix` after: the shape of every batch body.
    static func batch(_ events: [[UInt8]], prefix: StaticString, suffix: StaticString) -> [UInt8] {
        var out = JSONWriter(capacity: events.reduce(32) { $0 + $1.count + 1 })
        out.raw(prefix)
        for (index, event) in events.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.bytes.append(contentsOf: event)
        }
        out.raw(suffix)
        return out.bytes
    }
}
