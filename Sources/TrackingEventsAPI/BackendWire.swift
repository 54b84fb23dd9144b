import CrashReporterHTTP
import CrashReporterSupport
import Tracking

/// What one backend's wire format decides, for `QueuedDelivery`: how one event is written into
/// the queue (the bytes sent later, as they are), and how a batch of them becomes a request.
/// The events API (`EventsAPIWire`), TelemetryDeck (`TelemetryDeckWire`) and PostHog
/// (`PostHogWire`) each have one; everything else is shared.
protocol BackendWire: EventObjectWriter {
    /// The backend's name in diagnostics: `events API`, `TelemetryDeck`, `PostHog`.
    var backendName: String { get }
    /// The queue file's name under `<state>/analytics/`: one per backend, so that two providers
    /// of one tracker never share a queue.
    var queueFileName: String { get }
    /// Whether requests can be made (an endpoint and the backend's key are set); without, events
    /// stay queued.
    var canSend: Bool { get }
    /// Why the configured URL or key cannot be used, naming the option or variable it came from;
    /// nil when it can, or when none is set.
    var configurationError: String? { get }
    /// The bytes the batch body adds around the events, for the body's size bound.
    var batchOverhead: Int { get }
    /// The request that sends these encoded events; nil when `canSend` is false.
    func request(for events: [[UInt8]], timeout: Duration) -> HTTPRequest?
    /// Debug builds: says on standard error what an answer means (a refusal, per-event rejections).
    func reportAnswer(_ response: HTTPResponse)
}

/// Writes one event as its backend's JSON object, given the properties that fit: the part of a
/// wire format `BoundedEventEncoder.encode` runs, once per try, while it fits the event into 8 KB.
protocol EventObjectWriter: Sendable {
    /// Whether a parameter may be sent at all under `key` (on top of the shared length rules).
    func allows(key: String) -> Bool
    func writeObject(
        _ event: AnalyticsEvent, id: UUIDBytes, properties: some Sequence<(key: String, value: TrackingValue)>,
        into out: inout JSONWriter)
}

extension EventObjectWriter {
    func allows(key: String) -> Bool { true }
}

extension BackendWire {
    func reportAnswer(_ response: HTTPResponse) {
        guard !(200..<300).contains(response.status) else { return }
        Diagnostics.report(
            "\(backendName) answered \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
        )
    }
}

/// How often and how much a provider sends, whatever its backend: the bounds of docs/events-api.md
/// (batches of at most 100 events and 1 MB), the flush triggers and the queue's size.
struct DeliverySettings: Sendable {
    var flushAt: Int
    var flushInterval: Duration
    var maxQueued: Int
    var maxBatchSize: Int
    var requestTimeout: Duration

    init(flushAt: Int, flushInterval: Duration, maxQueued: Int, maxBatchSize: Int, requestTimeout: Duration) {
        self.flushAt = max(1, flushAt)
        self.flushInterval = flushInterval
        self.maxQueued = max(1, maxQueued)
        self.maxBatchSize = min(EventLimits.maxBatchEvents, max(1, maxBatchSize))
        self.requestTimeout = requestTimeout
    }
}

extension QueuedEvent {
    /// The event, whose id is `id`, as its queue line (`<epoch> <event_id> <json>\n`) in the
    /// wire's format, encoded once into the bytes the queue writes; nil when it does not fit
    /// in 8 KB.
    init?(_ event: AnalyticsEvent, id: UUIDBytes, wire: some EventObjectWriter) {
        var out = JSONWriter(capacity: 384)
        QueuedEvent.appendPrefix(epoch: event.consentEpoch, id: id, to: &out)
        let jsonStart = out.bytes.count
        guard BoundedEventEncoder.encode(event, id: id, with: wire, into: &out) else { return nil }
        out.byte(UInt8(ascii: "\n"))
        self.init(id: id, epoch: event.consentEpoch, line: out.bytes, jsonStart: jsonStart)
    }
}
