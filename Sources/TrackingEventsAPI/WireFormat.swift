import CrashReporterSupport
import Tracking

/// The events API's JSON (docs/events-api.md §3), written by hand: one event is encoded on the thread
/// that tracks it, so it has to cost about a microsecond, not a JSONEncoder.
enum WireFormat {
    static let maxEventBytes = 8 * 1024
    static let maxBodyBytes = 1_000_000
    static let maxProperties = 50
    static let maxKeyLength = 64
    static let maxStringValueLength = 1024

    /// The event as one JSON object, or nil when its id is not a UUID (the API would refuse
    /// it) or even without properties it exceeds 8 KB. Properties beyond the 50th (by key),
    /// keys outside 1–64 characters and strings over 1,024 characters are left out; when the
    /// event would pass 8 KB, properties are left out from the last key backwards until it
    /// fits. The id is written in lower case.
    static func encode(_ event: AnalyticsEvent, context: [UInt8]) -> [UInt8]? {
        guard let id = event.uuid ?? UUIDBytes(event.id) else { return nil }
        var out = JSONWriter(capacity: 256 + context.count)
        guard encode(event, id: id, context: context, into: &out) else { return nil }
        return out.bytes
    }

    /// The event, whose id is `id`, as its queue line (`<epoch> <event_id> <json>\n`), encoded
    /// once into the bytes the queue writes; nil when it does not fit in 8 KB.
    static func queuedEvent(_ event: AnalyticsEvent, id: UUIDBytes, context: [UInt8]) -> QueuedEvent? {
        var out = JSONWriter(capacity: 320 + context.count)
        QueuedEvent.appendPrefix(epoch: event.consentEpoch, id: id, to: &out)
        let jsonStart = out.bytes.count
        guard encode(event, id: id, context: context, into: &out) else { return nil }
        out.byte(UInt8(ascii: "\n"))
        return QueuedEvent(id: id, epoch: event.consentEpoch, line: out.bytes, jsonStart: jsonStart)
    }

    /// Appends the event's JSON to `out`; false, with `out` as it was, when it does not fit.
    static func encode(
        _ event: AnalyticsEvent, id: UUIDBytes, context: [UInt8], into out: inout JSONWriter
    ) -> Bool {
        let start = out.bytes.count
        // The common event has at most one property: no array to sort it in.
        if event.parameters.count <= 1 {
            if let (key, value) = event.parameters.first, isSendable(key: key, value: value) {
                encodeObject(event, id: id, CollectionOfOne((key: key, value: value)), context: context, into: &out)
                if out.bytes.count - start <= maxEventBytes { return true }
                out.bytes.removeSubrange(start...)
            }
            encodeObject(event, id: id, EmptyCollection(), context: context, into: &out)
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
            encodeObject(event, id: id, properties, context: context, into: &out)
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
        _ event: AnalyticsEvent, id: UUIDBytes, _ properties: some Sequence<(key: String, value: TrackingValue)>,
        context: [UInt8], into out: inout JSONWriter
    ) {
        out.raw("{\"event_id\":")
        out.uuid(id)
        out.raw(",\"name\":")
        out.string(event.name)
        out.raw(",\"anonymous_id\":")
        out.string(event.installID)
        out.raw(",\"occurred_at\":")
        out.timestamp(Timestamp(seconds: event.occurredAt))
        out.raw(",\"properties\":{")
        var first = true
        for (key, value) in properties {
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            out.string(key)
            out.byte(UInt8(ascii: ":"))
            out.trackingValue(value)
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
    static func batchBody<C: Collection>(_ events: C) -> [UInt8] where C.Element == [UInt8] {
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
        return body
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

extension JSONWriter {
    /// A parameter value as the API's flat property: a string, an integer, a number (`null`
    /// when not finite: JSON has none) or `true`/`false`.
    mutating func trackingValue(_ value: TrackingValue) {
        switch value {
        case .string(let text): string(text)
        case .int(let number): signed(Int64(number))
        case .double(let number): double(number)
        case .bool(let flag): bool(flag)
        }
    }
}
