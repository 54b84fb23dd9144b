import CrashReporterHTTP
import CrashReporterSupport

/// Where and how the OTLP transport exports, read from OpenTelemetry's standard variables
/// (opentelemetry.io/docs/specs/otel/protocol/exporter/) and the values given in code or on
/// the command line that stand in for them:
///
/// | variable | rule |
/// |---|---|
/// | `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` | the logs URL, used as is (http or https) |
/// | `OTEL_EXPORTER_OTLP_ENDPOINT` | the base URL; `/v1/logs` is appended |
/// | `OTEL_EXPORTER_OTLP_LOGS_HEADERS`, `OTEL_EXPORTER_OTLP_HEADERS` | `key=value,key2=value2`, percent-decoded |
/// | `OTEL_EXPORTER_OTLP_LOGS_PROTOCOL`, `OTEL_EXPORTER_OTLP_PROTOCOL` | `http/protobuf` (the default) or `http/json` |
/// | `OTEL_SERVICE_NAME` | any text; blank is unset |
/// | `OTEL_RESOURCE_ATTRIBUTES` | `key=value,…` like the headers; identifying keys dropped (``OTLPResourcePrivacy``) |
/// | `OTEL_SDK_DISABLED=true`, `OTEL_LOGS_EXPORTER=none` | no OTLP export (any endpoint is ignored) |
///
/// The logs variant of a variable wins over the general one. `grpc` is refused with its reason:
/// the transport speaks OTLP/HTTP only.
package struct OTLPSettings: Sendable, Equatable {
    package enum Encoding: String, Sendable, Equatable, CaseIterable {
        case protobuf = "http/protobuf"
        case json = "http/json"

        /// The request's `Content-Type`.
        package var contentType: String {
            switch self {
            case .protobuf: "application/x-protobuf"
            case .json: "application/json"
            }
        }
    }

    /// The values given in code or on the command line, each standing in for its variables
    /// when set; `name` is what errors call them (`Options.otlp`, `--otlp-endpoint`).
    package struct Given: Sendable {
        /// The logs endpoint, used as is; it stands in for both endpoint variables, so nil
        /// means no OTLP export (`crashreport upload --url` ignores the OTLP variables).
        package var logsEndpoint: String?
        package var headers: [String: String]?
        package var encoding: String?
        package var serviceName: String?
        package var resourceAttributes: [String: String]?
        package var name: String

        package init(
            logsEndpoint: String? = nil, headers: [String: String]? = nil, encoding: String? = nil,
            serviceName: String? = nil, resourceAttributes: [String: String]? = nil, name: String
        ) {
            self.logsEndpoint = logsEndpoint
            self.headers = headers
            self.encoding = encoding
            self.serviceName = serviceName
            self.resourceAttributes = resourceAttributes
            self.name = name
        }
    }

    /// The URL records are POSTed to.
    package var endpoint: HTTPURL
    /// Extra request headers (an API key, a tenant), in the order given. Never logged.
    package var headers: [HTTPHeader]
    package var encoding: Encoding
    /// `OTEL_SERVICE_NAME`: the resource's `service.name` (else the report's app name).
    package var serviceName: String?
    /// The resource attributes the operator asked for that may be sent, in the order given.
    package var resourceAttributes: [OTLPAttribute]
    /// The keys of `OTEL_RESOURCE_ATTRIBUTES` that are never sent, in the order given.
    package var droppedResourceKeys: [String]

    package init(
        endpoint: HTTPURL, headers: [HTTPHeader] = [], encoding: Encoding = .protobuf, serviceName: String? = nil,
        resourceAttributes: [OTLPAttribute] = [], droppedResourceKeys: [String] = []
    ) {
        self.endpoint = endpoint
        self.headers = headers
        self.encoding = encoding
        self.serviceName = serviceName
        self.resourceAttributes = resourceAttributes
        self.droppedResourceKeys = droppedResourceKeys
    }

    /// The settings in `environment` (with `given` standing in), nil when no endpoint is set or
    /// OpenTelemetry export is turned off. Every value is checked, so a mistake shows at start.
    package static func read(_ settings: EnvironmentSettings, given: Given? = nil) throws(SettingError) -> OTLPSettings?
    {
        guard let endpoint = try endpoint(settings, given: given) else { return nil }
        let headers = try headers(settings, given: given)
        let encoding = try encoding(settings, given: given)
        let serviceName = settings.text(given?.serviceName, or: .otelServiceName)
        var pairs: [(String, String)]
        if let given, let attributes = given.resourceAttributes {
            pairs = attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        } else {
            pairs = try OTLPKeyValueList.parse(
                settings.raw(.otelResourceAttributes), name: EnvironmentVariable.otelResourceAttributes.name,
                secret: false)
        }
        let (kept, dropped) = OTLPResourcePrivacy.partition(pairs)
        return OTLPSettings(
            endpoint: endpoint, headers: headers, encoding: encoding, serviceName: serviceName,
            resourceAttributes: kept.map { OTLPAttribute($0.0, $0.1) }, droppedResourceKeys: dropped)
    }

    /// `OTEL_SDK_DISABLED=true` or `OTEL_LOGS_EXPORTER=none`: the operator turned export off.
    static func disabled(_ settings: EnvironmentSettings) throws(SettingError) -> Bool {
        if try settings.boolean(.otelSDKDisabled) == true { return true }
        guard let exporters = settings.text(.otelLogsExporter) else { return false }
        let names = exporters.split(separator: ",").map { $0.trimmingASCIIWhitespace().lowercased() }
        return names == ["none"]
    }

    private static func endpoint(_ settings: EnvironmentSettings, given: Given?) throws(SettingError) -> HTTPURL? {
        if let given {
            // The endpoint given stands in for both variables, and none given means none.
            guard let text = given.logsEndpoint else { return nil }
            return try url(text, name: given.name)
        }
        guard try !disabled(settings) else { return nil }
        if let text = settings.text(.otlpLogsEndpoint) {
            return try url(text, name: EnvironmentVariable.otlpLogsEndpoint.name)
        }
        guard let base = settings.text(.otlpEndpoint) else { return nil }
        // The specification's rule: the signal's path is added to the base's, after one `/`.
        var trimmed = Substring(base)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        let name = EnvironmentVariable.otlpEndpoint.name
        _ = try url(base, name: name)
        return try url(trimmed + "/v1/logs", name: name)
    }

    private static func url(_ text: String, name: String) throws(SettingError) -> HTTPURL? {
        try DeliveryConfiguration.endpointURL(DeliveryConfiguration.Given(text, name: name))
    }

    private static func headers(_ settings: EnvironmentSettings, given: Given?) throws(SettingError) -> [HTTPHeader] {
        let pairs: [(String, String)]
        if let given, let headers = given.headers {
            pairs = headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        } else {
            let variable: EnvironmentVariable = settings.text(.otlpLogsHeaders) != nil ? .otlpLogsHeaders : .otlpHeaders
            pairs = try OTLPKeyValueList.parse(settings.raw(variable), name: variable.name, secret: true)
        }
        let headersName = EnvironmentVariable.otlpHeaders.name
        let givenName = given?.headers != nil ? given?.name ?? headersName : headersName
        return try pairs.map { (pair) throws(SettingError) -> HTTPHeader in
            try OTLPKeyValueList.header(pair, name: givenName)
        }
    }

    private static func encoding(_ settings: EnvironmentSettings, given: Given?) throws(SettingError) -> Encoding {
        let (text, name): (String?, String) =
            if let given, let value = given.encoding {
                (Setting.text(value), given.name)
            } else if let (variable, value) = settings.first(.otlpLogsProtocol, .otlpProtocol) {
                (value, variable.name)
            } else {
                (nil, EnvironmentVariable.otlpProtocol.name)
            }
        guard let text else { return .protobuf }
        if let encoding = Encoding(rawValue: text.lowercased()) { return encoding }
        let rule =
            text.lowercased() == "grpc"
            ? "be http/protobuf or http/json: crash reports are exported over OTLP/HTTP, not gRPC (set "
                + "\(EnvironmentVariable.otlpLogsProtocol.name) and \(EnvironmentVariable.otlpLogsEndpoint.name) "
                + "for them, or \(EnvironmentVariable.otelLogsExporter.name)=none)"
            : "be http/protobuf or http/json"
        throw SettingError(name: name, value: text, rule: rule)
    }
}
