import CrashReporterSupport
import Tracking

/// The events API's JSON (docs/events-api.md §3): the event object, the batch body, the context block.
extension EventsAPIWire {
    /// The event as one JSON object, or nil when its id is not a UUID (the API would refuse
    /// it) or even without properties it exceeds 8 KB (the limits of `EventLimits`). The id
    /// is written in lower case.
    static func encode(_ event: AnalyticsEvent, context: [UInt8]) -> [UInt8]? {
        EventsAPIObject(context: context).encodeAlone(event)
    }

    /// The event, whose id is `id`, as its queue line (`<epoch> <event_id> <json>\n`), encoded
    /// once into the bytes the queue writes; nil when it does not fit in 8 KB.
    static func queuedEvent(_ event: AnalyticsEvent, id: UUIDBytes, context: [UInt8]) -> QueuedEvent? {
        QueuedEvent(event, id: id, wire: EventsAPIObject(context: context))
    }

    /// `{"events":[…]}` from encoded events.
    static func batchBody(_ events: [[UInt8]]) -> [UInt8] {
        BoundedEventEncoder.batch(events, prefix: "{\"events\":[", suffix: "]}")
    }

    /// The bytes `batchBody` adds around the events.
    static let batchBodyOverhead = "{\"events\":[]}".utf8.count

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

/// The events API's event object (docs/events-api.md §3.2).
struct EventsAPIObject: EventObjectWriter {
    /// The context block, made once per process (`EventsAPIWire.encodeContext`); empty for none.
    let context: [UInt8]

    func writeObject(
        _ event: AnalyticsEvent, id: UUIDBytes, properties: some Sequence<(key: String, value: TrackingValue)>,
        into out: inout JSONWriter
    ) {
        out.raw("{\"event_id\":")
        out.uuid(id)
        out.raw(",\"name\":")
        out.string(event.name)
        out.raw(",\"anonymous_id\":")
        out.string(event.installID)
        out.raw(",\"occurred_at\":")
        out.timestamp(Timestamp(seconds: event.occurredAt))
        out.raw(",\"properties\":")
        BoundedEventEncoder.writeProperties(properties, into: &out)
        if !context.isEmpty {
            out.raw(",\"context\":")
            out.bytes.append(contentsOf: context)
        }
        out.raw("}")
    }
}

extension EventObjectWriter {
    /// The event's JSON alone; nil when its id is not a UUID or it does not fit.
    func encodeAlone(_ event: AnalyticsEvent) -> [UInt8]? {
        guard let id = event.uuid ?? UUIDBytes(event.id) else { return nil }
        var out = JSONWriter(capacity: 384)
        guard BoundedEventEncoder.encode(event, id: id, with: self, into: &out) else { return nil }
        return out.bytes
    }
}
