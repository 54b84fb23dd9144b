import CrashReporterSupport

/// OTLP/JSON: the protobuf JSON mapping with lowerCamelCase names, 64-bit integers as strings
/// (numbers accepted too), enums as numbers; unknown members are skipped.
extension OTLPLogsParser {
    package static func parse(json value: JSONValue) throws(OTLPLogsError) -> Export {
        guard case .object = value else { throw OTLPLogsError(reason: "expected an ExportLogsServiceRequest object") }
        var export = Export()
        for resourceLogs in try list(value["resourceLogs"], "resourceLogs") {
            let resource = try attributes(resourceLogs["resource"]?["attributes"], depth: 0)
            for scopeLogs in try list(resourceLogs["scopeLogs"], "scopeLogs") {
                var scope: [String: JSONValue] = [:]
                if let name = scopeLogs["scope"]?["name"]?.stringValue { scope["name"] = .string(name) }
                if let version = scopeLogs["scope"]?["version"]?.stringValue { scope["version"] = .string(version) }
                for item in try list(scopeLogs["logRecords"], "logRecords") {
                    var record = OTLPReceivedRecord(resource: resource, scope: scope)
                    guard let time = integer(item["timeUnixNano"]),
                        let observed = integer(item["observedTimeUnixNano"]),
                        let severity = integer(item["severityNumber"])
                    else {
                        export.rejected += 1
                        export.rejection = export.rejection ?? "a log record's time or severity is not an integer"
                        continue
                    }
                    record.timeUnixNano = UInt64(bitPattern: time)
                    record.observedTimeUnixNano = UInt64(bitPattern: observed)
                    record.severityNumber = severity
                    record.severityText = item["severityText"]?.stringValue ?? ""
                    record.eventName = item["eventName"]?.stringValue ?? ""
                    record.body = try anyValue(item["body"], depth: 0)
                    record.attributes = try attributes(item["attributes"], depth: 0)
                    export.add(record)
                }
            }
        }
        return export
    }

    private static func list(_ value: JSONValue?, _ name: String) throws(OTLPLogsError) -> [JSONValue] {
        switch value {
        case nil, .null?: return []
        case .array(let items)?: return items
        default: throw OTLPLogsError(reason: "\(name) is not an array")
        }
    }

    /// An int64 as OTLP/JSON writes it (a decimal string) or as a number; absent is 0.
    private static func integer(_ value: JSONValue?) -> Int64? {
        switch value {
        case nil, .null?: 0
        case .string(let text)?: Int64(text) ?? UInt64(text).map { Int64(bitPattern: $0) }
        case .number(let number)?: number.exactly(Int64.self)
        default: nil
        }
    }

    private static func attributes(_ value: JSONValue?, depth: Int) throws(OTLPLogsError) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for pair in try list(value, "attributes") {
            guard let key = pair["key"]?.stringValue else { throw OTLPLogsError(reason: "an attribute has no key") }
            members[key] = try anyValue(pair["value"], depth: depth)
        }
        return members
    }

    private static func anyValue(_ value: JSONValue?, depth: Int) throws(OTLPLogsError) -> JSONValue {
        guard depth < depthLimit else { throw OTLPLogsError(reason: "values nested too deep") }
        guard let value, case .object(let members) = value, let (kind, inner) = members.first else { return .null }
        switch kind {
        case "stringValue": return inner.stringValue.map(JSONValue.string) ?? .null
        case "boolValue": return inner.boolValue.map(JSONValue.bool) ?? .null
        case "intValue": return integer(inner).map { .number(.int($0)) } ?? .null
        case "doubleValue": return inner.numberValue.map(JSONValue.number) ?? .null
        case "bytesValue": return inner
        case "arrayValue":
            return .array(
                try list(inner["values"], "arrayValue.values").map { (item) throws(OTLPLogsError) in
                    try anyValue(item, depth: depth + 1)
                })
        case "kvlistValue": return .object(try attributes(inner["values"], depth: depth + 1))
        default: return .null
        }
    }
}
