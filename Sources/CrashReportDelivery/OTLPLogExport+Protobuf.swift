import CrashReporterSupport

/// The export as protobuf (`Content-Type: application/x-protobuf`), field numbers from
/// opentelemetry-proto: `ExportLogsServiceRequest.resource_logs` 1; `ResourceLogs.resource` 1,
/// `scope_logs` 2; `Resource.attributes` 1; `ScopeLogs.scope` 1, `log_records` 2;
/// `InstrumentationScope.name` 1, `version` 2; `LogRecord.time_unix_nano` 1 (fixed64),
/// `severity_number` 2, `severity_text` 3, `body` 5, `attributes` 6,
/// `observed_time_unix_nano` 11 (fixed64), `event_name` 12; `KeyValue.key` 1, `value` 2;
/// `AnyValue.string_value` 1, `bool_value` 2, `int_value` 3, `double_value` 4.
extension OTLPLogExport {
    package var protobuf: [UInt8] {
        var request = ProtobufWriter(capacity: 4096)
        request.message(1) { resourceLogs in
            resourceLogs.message(1) { resource in
                for attribute in self.resource { resource.message(1) { $0.keyValue(attribute) } }
            }
            resourceLogs.message(2) { scopeLogs in
                scopeLogs.message(1) { scope in
                    scope.string(1, scopeName)
                    if !scopeVersion.isEmpty { scope.string(2, scopeVersion) }
                }
                for record in records { scopeLogs.message(2) { $0.logRecord(record) } }
            }
        }
        return request.bytes
    }
}

extension ProtobufWriter {
    fileprivate mutating func logRecord(_ record: OTLPLogRecord) {
        if record.timeUnixNano != 0 { fixed64(1, record.timeUnixNano) }
        if record.severityNumber != 0 { integer(2, Int64(record.severityNumber)) }
        if !record.severityText.isEmpty { string(3, record.severityText) }
        message(5) { $0.anyValue(.string(record.body)) }
        for attribute in record.attributes { message(6) { $0.keyValue(attribute) } }
        if record.observedTimeUnixNano != 0 { fixed64(11, record.observedTimeUnixNano) }
        if !record.eventName.isEmpty { string(12, record.eventName) }
    }

    fileprivate mutating func keyValue(_ attribute: OTLPAttribute) {
        string(1, attribute.key)
        message(2) { $0.anyValue(attribute.value) }
    }

    /// A value of the `oneof`: written even when it is the default, so that the receiver
    /// sees which kind it is.
    fileprivate mutating func anyValue(_ value: OTLPAttribute.Value) {
        switch value {
        case .string(let text): string(1, text)
        case .bool(let flag): bool(2, flag)
        case .int(let number): integer(3, number)
        case .double(let number): double(4, number)
        }
    }
}
