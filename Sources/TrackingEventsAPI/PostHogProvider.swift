import CrashReporterHTTP
import CrashReporterSupport
import Tracking

/// How the PostHog provider is set up. Environment variables fill in what the code leaves out:
/// `POSTHOG_API_KEY` and `POSTHOG_HOST`.
public struct PostHogOptions: Sendable {
    /// The project's API key (`phc_…`, the public one events are captured with). Without one
    /// (here or in `POSTHOG_API_KEY`) events stay queued.
    public var apiKey: String?
    /// The PostHog instance, else `POSTHOG_HOST`, else `https://us.i.posthog.com` (PostHog
    /// Cloud US; `https://eu.i.posthog.com` for EU, or a self-hosted instance's URL). Events go to
    /// `<host>/batch/`.
    public var host: String?
    /// When and how much is sent: the same options as the other providers'.
    public var delivery: AnalyticsDeliveryOptions

    /// Options with each field given; what is nil is read from the environment.
    public init(
        apiKey: String? = nil, host: String? = nil, delivery: AnalyticsDeliveryOptions = AnalyticsDeliveryOptions()
    ) {
        self.apiKey = apiKey
        self.host = host
        self.delivery = delivery
    }

    /// PostHog Cloud's US ingestion host, PostHog's own clients' default.
    public static let defaultHost = "https://us.i.posthog.com"

    /// The batch URL for a host: `<host>/batch/`.
    static func batchURL(host: String) -> String {
        let text = EndpointSetting.trimmed(host)
        return text.hasSuffix("/batch") ? text + "/" : text + "/batch/"
    }
}

/// Sends analytics events to PostHog's capture API (`POST /batch/`) as anonymous events, with the
/// queue, retries and consent handling of the events-API provider (`QueuedDelivery`); the queue
/// is `<state>/analytics/posthog.queue`.
///
/// Every event asks for no person profile (`$process_person_profile: false`) and no GeoIP
/// enrichment (`$geoip_disable: true`), under the install id as `distinct_id`. The provider
/// never identifies anyone: it has no `identify`, and parameters under a key that names a
/// person (`email`, `name`, …) or a PostHog key (`$set`, `$ip`, any `$…`) are left out.
public final class PostHogProvider: AnalyticsProvider {
    let delivery: QueuedDelivery

    /// A provider keeping its queue in `stateDirectory` (the tracker's).
    ///
    /// - Parameters:
    ///   - stateDirectory: The tracker's state directory; the queue is kept under its
    ///     `analytics/` folder, which the tracker deletes when consent is revoked.
    ///   - options: Where and when events are sent (``PostHogOptions``).
    ///   - transport: What sends the requests; nil for the package's own HTTP client.
    ///   - environment: Where `POSTHOG_API_KEY` and `POSTHOG_HOST` are read when the options
    ///     leave them out; nil for the process's environment.
    public init(
        stateDirectory: String,
        options: PostHogOptions = PostHogOptions(),
        transport: (any HTTPTransport)? = nil,
        environment: [String: String]? = nil
    ) {
        delivery = QueuedDelivery(
            stateDirectory: stateDirectory, settings: options.delivery.settings, transport: transport,
            environment: environment
        ) { PostHogWire(options, environment: $0) }
    }
}

/// PostHog's capture API: `POST <host>/batch/` with
/// `{"api_key","batch":[…],"historical_migration":false,"sent_at"}`, each
/// event `{"event","distinct_id","uuid","timestamp","properties"}`.
struct PostHogWire: BackendWire {
    let endpoint: HTTPURL?
    let apiKey: String?
    let configurationError: String?

    init(_ options: PostHogOptions, environment: [String: String]) {
        (endpoint, configurationError) = EndpointSetting.resolve(
            options.host, option: "PostHogOptions.host", variable: .postHogHost, environment: environment,
            default: PostHogOptions.defaultHost, endpoint: PostHogOptions.batchURL(host:))
        apiKey = EndpointSetting.text(options.apiKey, variable: .postHogAPIKey, environment: environment)
    }

    var backendName: String { "PostHog" }
    var queueFileName: String { StateLayout.Name.postHogQueue }
    var canSend: Bool { endpoint != nil && apiKey != nil }
    /// `{"api_key":…,"batch":[],"historical_migration":false,"sent_at":"…"}`, the key escaped at worst.
    var batchOverhead: Int { 96 + 6 * (apiKey?.utf8.count ?? 0) }

    func allows(key: String) -> Bool { PersonalKeys.allows(key) }

    func writeObject(
        _ event: AnalyticsEvent, id: UUIDBytes, properties: some Sequence<(key: String, value: TrackingValue)>,
        into out: inout JSONWriter
    ) {
        out.raw("{\"event\":")
        out.string(event.name)
        out.raw(",\"distinct_id\":")
        out.string(event.installID)
        out.raw(",\"uuid\":")
        out.uuid(id)
        out.raw(",\"timestamp\":")
        out.timestamp(Timestamp(seconds: event.occurredAt))
        out.raw(",\"properties\":")
        BoundedEventEncoder.writeProperties(properties, into: &out, closing: false)
        if out.bytes.last != UInt8(ascii: "{") { out.byte(UInt8(ascii: ",")) }
        out.raw(
            "\"$process_person_profile\":false,\"$geoip_disable\":true,\"$lib\":\"swift-crash-reporter\"}}")
    }

    func request(for events: [[UInt8]], timeout: Duration) -> HTTPRequest? {
        guard let endpoint, let apiKey else { return nil }
        var body = JSONWriter(capacity: events.reduce(batchOverhead) { $0 + $1.count + 1 })
        body.raw("{\"api_key\":")
        body.string(apiKey)
        body.raw(",\"batch\":")
        body.bytes += BoundedEventEncoder.batch(events, prefix: "[", suffix: "]")
        // Live events, not an import of old ones: PostHog's ingestion treats them as such.
        body.raw(",\"historical_migration\":false,\"sent_at\":")
        body.timestamp(Timestamp.now())
        body.raw("}")
        return HTTPRequest(
            url: endpoint, method: "POST", headers: ["Content-Type": "application/json"], body: body.bytes,
            timeout: timeout)
    }
}
