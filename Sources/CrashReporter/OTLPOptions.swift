/// OpenTelemetry export set up in code: each report as a log record over OTLP/HTTP
/// (docs/opentelemetry.md). Every field left nil or empty is read from OpenTelemetry's
/// variables instead (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_PROTOCOL`,
/// `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`); the endpoint given here stands in for
/// `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` and `OTEL_EXPORTER_OTLP_ENDPOINT`. A Sentry DSN or an
/// upload URL, when set too, wins.
public struct OTLPOptions: Sendable {
    /// How records are encoded on the wire.
    public enum Encoding: String, Sendable, CaseIterable {
        /// `http/protobuf`, OpenTelemetry's default.
        case protobuf = "http/protobuf"
        /// `http/json`.
        case json = "http/json"
    }

    /// The logs endpoint, used as is: `http://otel-collector:4318/v1/logs`.
    public var logsEndpoint: String
    /// Request headers (an API key, a tenant); nil reads `OTEL_EXPORTER_OTLP_(LOGS_)HEADERS`.
    public var headers: [String: String]?
    /// Nil reads `OTEL_EXPORTER_OTLP_(LOGS_)PROTOCOL`, else `http/protobuf`.
    public var encoding: Encoding?
    /// The resource's `service.name`; nil reads `OTEL_SERVICE_NAME`, else the app's name.
    public var serviceName: String?
    /// Resource attributes to add; nil reads `OTEL_RESOURCE_ATTRIBUTES`. Keys that could name a
    /// machine or a person (`host.*`, `user.*`, `process.*`, instance ids…) are never sent.
    public var resourceAttributes: [String: String]?

    /// Export to `logsEndpoint` (the whole URL, `…/v1/logs`); every other field left nil is read from
    /// the `OTEL_*` variables, as described on each.
    public init(
        logsEndpoint: String, headers: [String: String]? = nil, encoding: Encoding? = nil, serviceName: String? = nil,
        resourceAttributes: [String: String]? = nil
    ) {
        self.logsEndpoint = logsEndpoint
        self.headers = headers
        self.encoding = encoding
        self.serviceName = serviceName
        self.resourceAttributes = resourceAttributes
    }
}
