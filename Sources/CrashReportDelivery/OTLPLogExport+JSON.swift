import CrashReporterSupport

/// The export as OTLP/JSON (`Content-Type: application/json`), the protobuf JSON mapping with
/// OTLP's rules: lowerCamelCase member names, 64-bit integers as decimal strings
/// (`timeUnixNano`, `intValue`), enums as their numbers (`severityNumber`), and default
/// values left out.
extension OTLPLogExport {
    package var json: [UInt8] {
        let scope: JSONValue =
            scopeVersion.isEmpty
            ? ["name": .string(scopeName)] : ["name": .string(scopeName), "version": .string(scopeVersion)]
        let request: JSONValue = [
            "resourceLogs": [
                [
                    "resource": ["attributes": .array(resource.map(\.json))],
                    "scopeLogs": [["scope": scope, "logRecords": .array(records.map(\.json))]],
                ]
            ]
        ]
        return JSON.serialize(request)
    }
}

extension OTLPLogRecord {
    fileprivate var json: JSONValue {
        var members: [String: JSONValue] = [
            "body": OTLPAttribute.Value.string(body).json,
            "attributes": .array(attributes.map(\.json)),
        ]
        if timeUnixNano != 0 { members["timeUnixNano"] = .string(String(timeUnixNano)) }
        if observedTimeUnixNano != 0 { members["observedTimeUnixNano"] = .string(String(observedTimeUnixNano)) }
        if severityNumber != 0 { members["severityNumber"] = JSONValue(severityNumber) }
        if !severityText.isEmpty { members["severityText"] = .string(severityText) }
        if !eventName.isEmpty { members["eventName"] = .string(eventName) }
        return .object(members)
    }
}

extension OTLPAttribute {
    fileprivate var json: JSONValue { ["key": .string(key), "value": value.json] }
}

extension OTLPAttribute.Value {
    fileprivate var json: JSONValue {
        switch self {
        case .string(let text): ["stringValue": .string(text)]
        case .bool(let flag): ["boolValue": .bool(flag)]
        case .int(let number): ["intValue": .string(String(number))]
        case .double(let number): ["doubleValue": JSONValue(number)]
        }
    }
}
