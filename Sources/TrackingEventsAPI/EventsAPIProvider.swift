import CrashReporterHTTP
import CrashReporterSupport
import Tracking

/// Sends analytics events to an events API (`POST /v1/events`, docs/events-api.md), with the
/// queue, retries and consent handling every provider of this module shares (`QueuedDelivery`):
/// the queue is `<state>/analytics/events.queue`.
public final class EventsAPIProvider: AnalyticsProvider {
    let delivery: QueuedDelivery

    /// Why the configured base URL cannot be used (`EventsAPIOptions.baseURL`, else
    /// `EVENTS_API_URL`), e.g. `EVENTS_API_URL must be an http or https URL (got "ftp://x")`;
    /// nil when it can, or when none is set. While it is set, events stay queued and nothing is
    /// sent, as without a URL. Debug builds also print it when the provider is made.
    public let configurationError: String?

    /// A provider keeping its queue in `stateDirectory` (the tracker's).
    ///
    /// - Parameters:
    ///   - stateDirectory: The tracker's state directory; the queue is kept under its
    ///     `analytics/` folder, which the tracker deletes when consent is revoked.
    ///   - options: Where and when events are sent (``EventsAPIOptions``).
    ///   - transport: What sends the requests; nil for the package's own HTTP client, with its
    ///     proxies and trust store taken from `environment`.
    ///   - environment: Where `EVENTS_API_URL`, `EVENTS_WRITE_KEY` and the context's variables
    ///     are read when the options leave them out; nil for the process's environment.
    public convenience init(
        stateDirectory: String,
        options: EventsAPIOptions = EventsAPIOptions(),
        transport: (any HTTPTransport)? = nil,
        environment: [String: String]? = nil
    ) {
        self.init(
            stateDirectory: stateDirectory, options: options, transport: transport, environment: environment,
            now: { ContinuousClock.now })
    }

    init(
        stateDirectory: String,
        options: EventsAPIOptions,
        transport: (any HTTPTransport)?,
        environment: [String: String]?,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        let environment = environment ?? ProcessEnvironment.current()
        let resolved = ResolvedEventsAPIOptions(options, environment: environment)
        configurationError = resolved.configurationError
        delivery = QueuedDelivery(
            stateDirectory: stateDirectory, wire: EventsAPIWire(resolved), settings: resolved.settings,
            transport: transport, environment: environment, now: now)
    }

    /// The `User-Agent` of the default transport (`QueuedDelivery.userAgent`).
    static var userAgent: String { QueuedDelivery.userAgent }
    static var groupCommitDelay: Duration { QueuedDelivery.groupCommitDelay }

    func writePending() { delivery.writePending() }
    var isSending: Bool { delivery.isSending }
    var deliveryState: DeliveryStateMachine { delivery.deliveryState }
}

/// The events API's requests: `POST <base>/v1/events` with `X-Write-Key`, body `{"events":[…]}`.
struct EventsAPIWire: BackendWire {
    let endpoint: HTTPURL?
    let writeKey: String?
    let configurationError: String?
    let object: EventsAPIObject

    init(_ options: ResolvedEventsAPIOptions) {
        endpoint = options.endpoint
        writeKey = options.writeKey
        configurationError = options.configurationError
        object = EventsAPIObject(context: options.context)
    }

    var backendName: String { "events API" }
    var queueFileName: String { StateLayout.Name.eventsQueue }
    var canSend: Bool { endpoint != nil && writeKey != nil }
    var batchOverhead: Int { EventsAPIWire.batchBodyOverhead }

    func writeObject(
        _ event: AnalyticsEvent, id: UUIDBytes, properties: some Sequence<(key: String, value: TrackingValue)>,
        into out: inout JSONWriter
    ) {
        object.writeObject(event, id: id, properties: properties, into: &out)
    }

    func request(for events: [[UInt8]], timeout: Duration) -> HTTPRequest? {
        guard let endpoint, let writeKey else { return nil }
        return HTTPRequest(
            url: endpoint, method: "POST", headers: ["Content-Type": "application/json", "X-Write-Key": writeKey],
            body: EventsAPIWire.batchBody(events), timeout: timeout)
    }

    /// Per-event rejections and clamped times of a 200, and any other answer.
    func reportAnswer(_ response: HTTPResponse) {
        guard response.status == 200, let object = try? JSON.parse(response.body) else {
            if response.status != 200 {
                Diagnostics.report(
                    "events API answered \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))"
                )
            }
            return
        }
        /// A member as text: a string as it is, anything else as JSON, `missing` when absent.
        func text(_ item: JSONValue, _ key: String, missing: String = "?") -> String {
            guard let value = item[key] else { return missing }
            return value.stringValue ?? value.description
        }
        for item in object["rejected"]?.arrayValue ?? [] {
            Diagnostics.report(
                "rejected: \(text(item, "code")) \(text(item, "message", missing: "")) (\(text(item, "event_id")))")
        }
        for item in object["clamped"]?.arrayValue ?? [] {
            Diagnostics.report("clamped: occurred_at replaced for \(text(item, "event_id"))")
        }
    }
}
