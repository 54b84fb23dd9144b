import CrashCollectorParsers
import CrashReporterSupport
import Testing

/// The collector's reader of OTLP logs exports (`POST /v1/logs`), both encodings.
@Suite("OTLP logs parser")
struct OTLPLogsParserTests {
    /// An export of records with these severity numbers, the first with a report id.
    func protobuf(severities: [Int64]) -> [UInt8] {
        var request = ProtobufWriter()
        request.message(1) { resourceLogs in
            resourceLogs.message(1) { resource in
                resource.message(1) { pair in
                    pair.string(1, "service.name")
                    pair.message(2) { $0.string(1, "orders") }
                }
            }
            resourceLogs.message(2) { scopeLogs in
                scopeLogs.message(1) { $0.string(1, "swift-crash-reporter") }
                for (index, severity) in severities.enumerated() {
                    scopeLogs.message(2) { record in
                        record.fixed64(1, 1_700_000_000_000_000_000)
                        record.integer(2, severity)
                        record.message(5) { $0.string(1, "boom") }
                        record.message(6) { pair in
                            pair.string(1, index == 0 ? "swift_crash_reporter.report.id" : "n")
                            pair.message(2) { $0.string(1, "3f1c2a9e-7b4d-4c1e-9a55-0d2e8b7c6a10") }
                        }
                        record.message(6) { pair in
                            pair.string(1, "list")
                            pair.message(2) { value in
                                value.message(5) { array in
                                    array.message(1) { $0.integer(3, -2) }
                                    array.message(1) { $0.bool(2, true) }
                                }
                            }
                        }
                        record.string(12, "swift_crash_reporter.crash")
                    }
                }
            }
        }
        return request.bytes
    }

    @Test("protobuf: records with their resource, scope, body and attributes; a bad severity is rejected")
    func protobufExport() throws {
        let export = try OTLPLogsParser.parse(protobuf: protobuf(severities: [21, 99]))
        #expect(export.records.count == 1)
        #expect(export.rejected == 1)
        #expect(export.rejection?.contains("severity_number 99") == true)
        let record = try #require(export.records.first)
        #expect(record.resource["service.name"] == "orders")
        #expect(record.scope["name"] == "swift-crash-reporter")
        #expect(record.severityNumber == 21)
        #expect(record.timeUnixNano == 1_700_000_000_000_000_000)
        #expect(record.body == "boom")
        #expect(record.eventName == "swift_crash_reporter.crash")
        #expect(record.attributes["list"] == [-2, true])
        #expect(record.reportID == "3f1c2a9e-7b4d-4c1e-9a55-0d2e8b7c6a10")
    }

    @Test("OTLP/JSON: int64 as strings or numbers, nested values, the same record")
    func jsonExport() throws {
        let text = """
            {"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"orders"}}]},
            "scopeLogs":[{"scope":{"name":"s","version":"1"},"logRecords":[
            {"timeUnixNano":"1700000000000000000","severityNumber":21,"body":{"stringValue":"boom"},
             "attributes":[{"key":"k","value":{"kvlistValue":{"values":[{"key":"a","value":{"intValue":"7"}}]}}}]},
            {"timeUnixNano":"soon","severityNumber":9}]}]}]}
            """
        let export = try OTLPLogsParser.parse(json: try JSON.parse(text))
        #expect(export.records.count == 1 && export.rejected == 1)
        let record = try #require(export.records.first)
        #expect(record.timeUnixNano == 1_700_000_000_000_000_000)
        #expect(record.attributes["k"] == ["a": 7])
        #expect(record.reportID == nil)
    }

    @Test(
        "what is not an export is an error",
        arguments: [[0x0a, 0x09, 0x01], [0x0b], [0x0a, 0x02, 0x12, 0x05]] as [[UInt8]])
    func malformed(bytes: [UInt8]) {
        #expect(throws: OTLPLogsError.self) { try OTLPLogsParser.parse(protobuf: bytes) }
    }

    @Test("values nested too deep are refused, not recursed into")
    func depth() throws {
        var value = #"{"stringValue":"x"}"#
        for _ in 0..<40 { value = #"{"arrayValue":{"values":[\#(value)]}}"# }
        let text = #"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":\#(value)}]}]}]}"#
        #expect(throws: OTLPLogsError.self) { try OTLPLogsParser.parse(json: try JSON.parse(text)) }
        #expect(throws: OTLPLogsError.self) { try OTLPLogsParser.parse(json: "[]") }
    }
}
