import CrashReporterSupport

/// An OTLP logs export (`ExportLogsServiceRequest`) read into its log records, each with its
/// resource's and scope's attributes, from protobuf or OTLP/JSON (docs/collector.md, "OTLP
/// logs"). A request that is not an export at all is an error; a record with a value out of its
/// range (a severity number above 24, a time that is not a number) is counted as rejected with
/// the reason, and the rest are kept: OTLP's partial success.
package enum OTLPLogsParser {
    /// What a request held.
    package struct Export: Sendable, Equatable {
        package var records: [OTLPReceivedRecord] = []
        package var rejected = 0
        /// The first rejected record's reason.
        package var rejection: String?
    }

    /// How deep `AnyValue`s (arrays and key-value lists) may nest.
    static let depthLimit = 16

    // MARK: Protobuf

    package static func parse(protobuf bytes: [UInt8]) throws(OTLPLogsError) -> Export {
        var export = Export()
        do throws(ProtobufError) {
            var request = ProtobufReader(bytes)
            while let (field, value) = try request.next() {
                guard field == 1 else { continue }
                try resourceLogs(try message(value, "resource_logs"), into: &export)
            }
        } catch {
            throw OTLPLogsError(reason: error.description)
        }
        return export
    }

    private static func message(_ value: ProtobufReader.Value, _ name: String) throws(ProtobufError) -> ArraySlice<
        UInt8
    > {
        guard case .lengthDelimited(let bytes) = value else {
            throw ProtobufError(offset: 0, reason: "\(name) is not a message")
        }
        return bytes
    }

    /// `ResourceLogs` and `ScopeLogs` share one shape: field 1 says whose records they hold (a
    /// `Resource`, an `InstrumentationScope`), the repeated field 2 holds them (`ScopeLogs`,
    /// `LogRecord`s). The messages of each field, in order.
    private static func headAndItems(
        _ bytes: ArraySlice<UInt8>, head: String, item: String
    ) throws(ProtobufError) -> (heads: [ArraySlice<UInt8>], items: [ArraySlice<UInt8>]) {
        var heads: [ArraySlice<UInt8>] = []
        var items: [ArraySlice<UInt8>] = []
        var reader = ProtobufReader(bytes)
        while let (field, value) = try reader.next() {
            if field == 1 {
                heads.append(try message(value, head))
            } else if field == 2 {
                items.append(try message(value, item))
            }
        }
        return (heads, items)
    }

    private static func resourceLogs(_ bytes: ArraySlice<UInt8>, into export: inout Export) throws(ProtobufError) {
        let (resources, scopes) = try headAndItems(bytes, head: "resource", item: "scope_logs")
        var resource: [String: JSONValue] = [:]
        for bytes in resources {
            var fields = ProtobufReader(bytes)
            while let (field, value) = try fields.next() {
                guard field == 1 else { continue }
                let (key, any) = try keyValue(try message(value, "attribute"), depth: 0)
                resource[key] = any
            }
        }
        for scopeLogs in scopes {
            let (heads, records) = try headAndItems(scopeLogs, head: "scope", item: "log_record")
            var scope: [String: JSONValue] = [:]
            for bytes in heads {
                var fields = ProtobufReader(bytes)
                while let (field, value) = try fields.next() {
                    if field == 1, let name = value.string { scope["name"] = .string(name) }
                    if field == 2, let version = value.string { scope["version"] = .string(version) }
                }
            }
            for bytes in records {
                var record = OTLPReceivedRecord(resource: resource, scope: scope)
                var reader = ProtobufReader(bytes)
                while let (field, value) = try reader.next() {
                    switch field {
                    case 1: record.timeUnixNano = value.integer.map { UInt64(bitPattern: $0) } ?? 0
                    case 11: record.observedTimeUnixNano = value.integer.map { UInt64(bitPattern: $0) } ?? 0
                    case 2: record.severityNumber = value.integer ?? 0
                    case 3: record.severityText = value.string ?? ""
                    case 5: record.body = try anyValue(try message(value, "body"), depth: 0)
                    case 6:
                        let (key, any) = try keyValue(try message(value, "attribute"), depth: 0)
                        record.attributes[key] = any
                    case 12: record.eventName = value.string ?? ""
                    default: break
                    }
                }
                export.add(record)
            }
        }
    }

    private static func keyValue(_ bytes: ArraySlice<UInt8>, depth: Int) throws(ProtobufError) -> (String, JSONValue) {
        var key = ""
        var value = JSONValue.null
        var reader = ProtobufReader(bytes)
        while let (field, raw) = try reader.next() {
            if field == 1 { key = raw.string ?? "" }
            if field == 2 { value = try anyValue(try message(raw, "value"), depth: depth) }
        }
        return (key, value)
    }

    private static func anyValue(_ bytes: ArraySlice<UInt8>, depth: Int) throws(ProtobufError) -> JSONValue {
        guard depth < depthLimit else { throw ProtobufError(offset: 0, reason: "values nested too deep") }
        var result = JSONValue.null
        var reader = ProtobufReader(bytes)
        while let (field, raw) = try reader.next() {
            switch (field, raw) {
            case (1, .lengthDelimited): result = raw.string.map(JSONValue.string) ?? .null
            case (2, .varint(let flag)): result = .bool(flag != 0)
            case (3, .varint(let bits)): result = .number(.int(Int64(bitPattern: bits)))
            case (4, .fixed64(let bits)): result = JSONValue(Double(bitPattern: bits))
            case (5, .lengthDelimited(let list)):
                // ArrayValue: repeated AnyValue values = 1.
                var items: [JSONValue] = []
                var reader = ProtobufReader(list)
                while let (field, item) = try reader.next() {
                    guard field == 1 else { continue }
                    items.append(try anyValue(try message(item, "array value"), depth: depth + 1))
                }
                result = .array(items)
            case (6, .lengthDelimited(let list)):
                // KeyValueList: repeated KeyValue values = 1.
                var members: [String: JSONValue] = [:]
                var reader = ProtobufReader(list)
                while let (field, item) = try reader.next() {
                    guard field == 1 else { continue }
                    let (key, value) = try keyValue(try message(item, "key-value"), depth: depth + 1)
                    members[key] = value
                }
                result = .object(members)
            case (7, .lengthDelimited(let data)): result = .string(hex(data))
            default: break
            }
        }
        return result
    }

    /// Bytes as lower-case hex (the collector's listing shows `bytes_value`s so).
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes { text += [JSONWriter.hexDigit(byte >> 4), JSONWriter.hexDigit(byte & 0xf)] }
        return String(decoding: text, as: UTF8.self)
    }
}
