import CrashReporterHTTP
import CrashReporterSupport
import Tracking

/// How the TelemetryDeck provider is set up. Environment variables fill in what the code
/// leaves out: `TELEMETRYDECK_APP_ID` and `TELEMETRYDECK_URL`.
public struct TelemetryDeckOptions: Sendable {
    /// The app's id in TelemetryDeck (its settings show it). Without one (here or in
    /// `TELEMETRYDECK_APP_ID`) events stay queued.
    public var appID: String?
    /// The ingest server, else `TELEMETRYDECK_URL`, else `https://nom.telemetrydeck.com`;
    /// signals go to `<url>/v2/` (a URL already ending in `/v2` or `/v2/namespace/<name>` is
    /// used as it is).
    public var baseURL: String?
    /// Appended to the install id before it is hashed into `clientUser`, as TelemetryDeck's
    /// SDKs do; empty by default. A fixed random string of the service's own makes the hash
    /// useless to anyone who knows an install id but not the salt.
    public var salt: String
    /// `isTestMode`: nil for `true` in debug builds and `false` otherwise.
    public var testMode: Bool?
    /// When and how much is sent: the same options as the other providers'.
    public var delivery: AnalyticsDeliveryOptions

    /// Options with each field given; what is nil is read from the environment.
    public init(
        appID: String? = nil, baseURL: String? = nil, salt: String = "", testMode: Bool? = nil,
        delivery: AnalyticsDeliveryOptions = AnalyticsDeliveryOptions()
    ) {
        self.appID = appID
        self.baseURL = baseURL
        self.salt = salt
        self.testMode = testMode
        self.delivery = delivery
    }

    /// TelemetryDeck's own ingest host.
    public static let defaultURL = "https://nom.telemetrydeck.com"

    /// The signals URL for a base URL: `<base>/v2/` unless it already names a v2 path.
    static func signalsURL(base: String) -> String {
        let text = EndpointSetting.trimmed(base)
        if text.hasSuffix("/v2") || text.contains("/v2/namespace/") { return text + "/" }
        return text + "/v2/"
    }
}

/// Sends analytics events to TelemetryDeck's ingest API (v2) as signals, with the queue, retries
/// and consent handling of the events-API provider (`QueuedDelivery`); the queue is
/// `<state>/analytics/telemetrydeck.queue`. docs/tracking.md shows a signal.
public final class TelemetryDeckProvider: AnalyticsProvider {
    let delivery: QueuedDelivery

    /// A provider keeping its queue in `stateDirectory` (the tracker's).
    ///
    /// - Parameters:
    ///   - stateDirectory: The tracker's state directory; the queue is kept under its
    ///     `analytics/` folder, which the tracker deletes when consent is revoked.
    ///   - options: Where and when events are sent (``TelemetryDeckOptions``).
    ///   - transport: What sends the requests; nil for the package's own HTTP client.
    ///   - environment: Where `TELEMETRYDECK_APP_ID` and `TELEMETRYDECK_URL` are read when the
    ///     options leave them out; nil for the process's environment.
    public init(
        stateDirectory: String,
        options: TelemetryDeckOptions = TelemetryDeckOptions(),
        transport: (any HTTPTransport)? = nil,
        environment: [String: String]? = nil
    ) {
        delivery = QueuedDelivery(
            stateDirectory: stateDirectory, settings: options.delivery.settings, transport: transport,
            environment: environment
        ) { TelemetryDeckWire(options, environment: $0) }
    }

    /// The signal type an event name becomes: each part between `_`, `-`, `:` and `.` with its
    /// first letter in upper case, joined by dots (`order_placed` is `Order.Placed`,
    /// `Orders.Place` stays). The one place the mapping is made.
    public static func signalType(for name: String) -> String {
        // On the bytes: names are ASCII by the tracker's rule, and only ASCII letters change.
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        var startOfPart = true
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "."):
                if !out.isEmpty && !startOfPart { out.append(UInt8(ascii: ".")) }
                startOfPart = true
            case UInt8(ascii: "a")...UInt8(ascii: "z") where startOfPart:
                out.append(byte - 32)
                startOfPart = false
            default:
                out.append(byte)
                startOfPart = false
            }
        }
        return out.isEmpty ? name : String(decoding: out, as: UTF8.self)
    }
}

/// TelemetryDeck's ingest API v2: `POST <url>/v2/` with a JSON array of signals, each
/// `{"appID","clientUser","sessionID","type","isTestMode","payload"}`. The queue holds each
/// signal without `appID`, which the request puts in front.
struct TelemetryDeckWire: BackendWire {
    let endpoint: HTTPURL?
    let appID: String?
    let configurationError: String?
    let salt: String
    let isTestMode: Bool
    /// One per run of the process: the signals of a run share it.
    let sessionID = UUIDBytes.random().description
    /// The last install id and its hash: hashing once per install id, not per event.
    private let clientUserCache = Lock<(installID: String, hash: String)?>(nil)

    init(_ options: TelemetryDeckOptions, environment: [String: String]) {
        (endpoint, configurationError) = EndpointSetting.resolve(
            options.baseURL, option: "TelemetryDeckOptions.baseURL", variable: .telemetryDeckURL,
            environment: environment, default: TelemetryDeckOptions.defaultURL,
            endpoint: TelemetryDeckOptions.signalsURL(base:))
        appID = EndpointSetting.text(options.appID, variable: .telemetryDeckAppID, environment: environment)
        salt = options.salt
        #if DEBUG
            isTestMode = options.testMode ?? true
        #else
            isTestMode = options.testMode ?? false
        #endif
    }

    var backendName: String { "TelemetryDeck" }
    var queueFileName: String { StateLayout.Name.telemetryDeckQueue }
    var canSend: Bool { endpoint != nil && appID != nil }
    /// The brackets, and the app id put in front of each of at most 100 signals.
    var batchOverhead: Int { 2 + 100 * (12 + 2 * (appID?.utf8.count ?? 0)) }

    func allows(key: String) -> Bool { PersonalKeys.allows(key) }

    /// SHA-256 of the install id followed by the salt, in hex: never the id itself.
    func clientUser(_ installID: String) -> String {
        if let cached = clientUserCache.withLock({ $0 }), cached.installID == installID { return cached.hash }
        let hash = SHA256.hex(installID + salt)
        clientUserCache.withLock { $0 = (installID, hash) }
        return hash
    }

    func writeObject(
        _ event: AnalyticsEvent, id: UUIDBytes, properties: some Sequence<(key: String, value: TrackingValue)>,
        into out: inout JSONWriter
    ) {
        // The app id is put in front when the batch is sent (`request`): a signal queued before
        // one was configured still goes out with it.
        out.raw("{\"clientUser\":")
        out.string(clientUser(event.installID))
        out.raw(",\"sessionID\":")
        out.string(sessionID)
        out.raw(",\"type\":")
        out.string(TelemetryDeckProvider.signalType(for: event.name))
        out.raw(isTestMode ? ",\"isTestMode\":\"true\"" : ",\"isTestMode\":\"false\"")
        out.raw(",\"payload\":")
        BoundedEventEncoder.writeProperties(properties, into: &out)
        out.raw("}")
    }

    func request(for events: [[UInt8]], timeout: Duration) -> HTTPRequest? {
        guard let endpoint, let appID else { return nil }
        var prefix = JSONWriter(capacity: 64)
        prefix.raw("{\"appID\":")
        prefix.string(appID)
        prefix.byte(UInt8(ascii: ","))
        let signals = events.map { prefix.bytes + $0.dropFirst() }
        return HTTPRequest(
            url: endpoint, method: "POST", headers: ["Content-Type": "application/json; charset=utf-8"],
            body: BoundedEventEncoder.batch(signals, prefix: "[", suffix: "]"), timeout: timeout)
    }
}
