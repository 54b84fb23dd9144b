import CrashReporterHTTP
import CrashReporterSupport
import Glibc

/// How the events-API provider is set up. Environment variables fill in what the code leaves
/// out: `EVENTS_API_URL` and `EVENTS_WRITE_KEY`.
public struct EventsAPIOptions: Sendable {
    /// The API's base URL, an absolute `http://` or `https://` URL such as
    /// `https://events.example.com/v1`; events go to `<base>/events`. A URL that already ends
    /// in `/events` is used as is, one without `/v1` gets `/v1/events`. Without one (here or in
    /// `EVENTS_API_URL`) events stay queued. So do they with one that cannot be used (another
    /// scheme, no host, a user name or password in it): the provider reports it in
    /// ``EventsAPIProvider/configurationError`` (and, in debug builds, on standard error).
    public var baseURL: String?
    /// Sent as `X-Write-Key`. Without one (here or in `EVENTS_WRITE_KEY`) events stay queued.
    public var writeKey: String?
    /// `context.app_version`, e.g. `1.4.2` (else `CRASH_REPORTER_APP_VERSION`, `SENTRY_RELEASE`).
    public var appVersion: String?
    /// `context.build`, a build number or commit.
    public var build: String?
    /// `context.environment`: `debug` in debug builds, else `production`, unless given.
    public var environment: String?
    /// When and how much is sent: the same options as the other providers'.
    public var delivery: AnalyticsDeliveryOptions

    /// Options with each field given; what is nil is read from `EVENTS_API_URL` and
    /// `EVENTS_WRITE_KEY`, or takes the default described on the field.
    public init(
        baseURL: String? = nil,
        writeKey: String? = nil,
        appVersion: String? = nil,
        build: String? = nil,
        environment: String? = nil,
        delivery: AnalyticsDeliveryOptions = AnalyticsDeliveryOptions()
    ) {
        self.baseURL = baseURL
        self.writeKey = writeKey
        self.appVersion = appVersion
        self.build = build
        self.environment = environment
        self.delivery = delivery
    }

    /// The `POST /v1/events` URL for a base URL: trailing slashes removed, then `/events` or
    /// `/v1/events` appended unless the URL ends in them.
    static func eventsURL(base: String) -> String {
        let text = EndpointSetting.trimmed(base)
        if text.hasSuffix("/events") { return text }
        if text.hasSuffix("/v1") { return text + "/events" }
        return text + "/v1/events"
    }
}

/// The options with the environment applied, and the context block made once.
struct ResolvedEventsAPIOptions: Sendable {
    /// Nil without a base URL, or with one that cannot be used (`configurationError` says why).
    var endpoint: HTTPURL?
    /// Why the base URL given cannot be used, naming where it came from; nil when it can.
    var configurationError: String?
    var writeKey: String?
    var settings: DeliverySettings
    var context: [UInt8]

    init(_ options: EventsAPIOptions, environment: [String: String]) {
        (endpoint, configurationError) = Self.endpoint(options.baseURL, environment: environment)
        let variables = EnvironmentSettings(environment)
        writeKey = options.writeKey ?? variables.nonEmpty(.eventsWriteKey)
        settings = options.delivery.settings
        #if DEBUG
            let defaultEnvironment = "debug"
        #else
            let defaultEnvironment = "production"
        #endif
        context = EventsAPIWire.encodeContext([
            ("app_version", options.appVersion ?? variables.raw(.appVersion) ?? variables.raw(.sentryRelease)),
            ("build", options.build),
            ("os_version", LinuxContext.osVersion()),
            ("device_model", LinuxContext.machine()),
            ("locale", LinuxContext.locale(environment: environment)),
            ("environment", options.environment ?? defaultEnvironment),
        ])
    }

    /// The events endpoint from the base URL in the options, else in `EVENTS_API_URL` (a blank
    /// value counts as none); an unusable one gives no endpoint and the reason, which names the
    /// option or variable it came from.
    static func endpoint(_ baseURL: String?, environment: [String: String]) -> (HTTPURL?, String?) {
        EndpointSetting.resolve(
            baseURL, option: "EventsAPIOptions.baseURL", variable: .eventsAPIURL, environment: environment,
            default: nil, endpoint: EventsAPIOptions.eventsURL(base:))
    }
}

/// What the context fields of docs/events-api.md §3.4 mean on a Linux server. None of them names the host,
/// a user or anything else that could tell one machine from another of its kind.
enum LinuxContext {
    /// The distribution and its version from `/etc/os-release` (`debian 12`, `ubuntu 24.04`),
    /// else the kernel release (`linux 6.1.0-18-amd64`).
    static func osVersion(osRelease: String = "/etc/os-release") -> String? {
        if let bytes = try? FileSystem.read(osRelease, limit: 64 << 10) {
            let text = String(decoding: bytes, as: UTF8.self)
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let eq = line.firstIndex(of: "=") else { continue }
                var value = String(line[line.index(after: eq)...])
                if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                fields[String(line[..<eq])] = value
            }
            if let id = fields["ID"], !id.isEmpty {
                return [id, fields["VERSION_ID"]].compactMap { $0 }.joined(separator: " ")
            }
        }
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        return "linux " + field(&name.release)
    }

    /// The CPU architecture (`x86_64`, `aarch64`): the closest to a device model that says
    /// nothing about the host.
    static func machine() -> String? {
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        return field(&name.machine)
    }

    /// `language_REGION` from `LC_ALL`, `LC_MESSAGES` or `LANG` (`en_US.UTF-8` gives `en_US`);
    /// nil for `C` and `POSIX`.
    static func locale(environment: [String: String]) -> String? {
        let settings = EnvironmentSettings(environment)
        let raw = [settings.raw(.localeAll), settings.raw(.localeMessages), settings.raw(.language)]
            .compactMap { $0 }.first { !$0.isEmpty }
        guard var value = raw else { return nil }
        if let dot = value.firstIndex(of: ".") { value = String(value[..<dot]) }
        if let at = value.firstIndex(of: "@") { value = String(value[..<at]) }
        if value == "C" || value == "POSIX" || value.isEmpty { return nil }
        return value
    }

    private static func field<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        }
    }
}
