/// One OTLP logs export as the project sends it: a resource, the instrumentation scope and
/// its log records, the part of `ExportLogsServiceRequest` (opentelemetry-proto,
/// `collector/logs/v1/logs_service.proto`) that a crash report needs. ``protobuf`` and ``json``
/// encode it (docs/opentelemetry.md).
package struct OTLPLogExport: Sendable, Equatable {
    /// The resource's attributes, in the order they are sent.
    package var resource: [OTLPAttribute]
    package var scopeName: String
    package var scopeVersion: String
    package var records: [OTLPLogRecord]
}

/// A `LogRecord`: when, how severe, what, and its attributes.
package struct OTLPLogRecord: Sendable, Equatable {
    /// When it happened (the crash), nanoseconds since 1970.
    package var timeUnixNano: UInt64
    /// When the reporter read it (the upload), nanoseconds since 1970.
    package var observedTimeUnixNano: UInt64
    /// `SeverityNumber`: 21 FATAL, 17 ERROR, 13 WARN.
    package var severityNumber: Int
    package var severityText: String
    /// The body, a string.
    package var body: String
    /// `event_name` (LogRecord field 12).
    package var eventName: String
    package var attributes: [OTLPAttribute]
}

/// A `KeyValue` whose value is one of the scalar kinds of `AnyValue`.
package struct OTLPAttribute: Sendable, Equatable {
    package enum Value: Sendable, Equatable {
        case string(String)
        case int(Int64)
        case bool(Bool)
        case double(Double)
    }

    package var key: String
    package var value: Value

    package init(_ key: String, _ value: Value) {
        self.key = key
        self.value = value
    }

    package init(_ key: String, _ value: String) { self.init(key, .string(value)) }
}
