import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import CrashReportDelivery

/// What a report becomes as an OTLP log record, and the two encodings' shapes. The encodings
/// are checked against the official definitions by the integration tests (OTLPDeliveryTests).
@Suite("OTLP log record")
struct OTLPRecordTests {
    let settings = OTLPSettings(
        endpoint: try! HTTPURL("http://127.0.0.1:1/v1/logs"), serviceName: nil,
        resourceAttributes: [OTLPAttribute("team", "payments"), OTLPAttribute("service.version", "9.9")])

    func outgoing(_ fixture: [String: Any], symbols: ReportSymbols = ReportSymbols()) throws -> OutgoingReport {
        let report = try ReportDecoding.decode(json: try ReportFixture.json(fixture))
        return OutgoingReport(
            id: report.reportID, fileData: [], report: report, symbols: symbols, notes: DeliveryNotes(suppressed: 3))
    }

    func attributes(_ record: OTLPLogRecord) -> [String: OTLPAttribute.Value] {
        Dictionary(record.attributes.map { ($0.key, $0.value) }) { $1 }
    }

    @Test("a crash: FATAL, the exception conventions, the report's id and signature, the cap's count")
    func crash() throws {
        let symbols = ReportSymbols(
            crash: [0: [FrameSymbol(function: "Orders.place()", file: "/home/builder/src/Orders.swift", line: 12)]],
            threads: [
                0: [0: [FrameSymbol(function: "Orders.place()", file: "/home/builder/src/Orders.swift", line: 12)]]
            ])
        let export = OTLPLogExport(
            report: try outgoing(ReportFixture.valid(), symbols: symbols), settings: settings,
            observed: Timestamp(milliseconds: 1_795_958_500_000))
        let record = try #require(export.records.first)
        #expect(record.severityNumber == 21 && record.severityText == "FATAL")
        #expect(record.eventName == "swift_crash_reporter.crash")
        #expect(record.timeUnixNano == UInt64(ReportFixture.crashTime) * 1_000_000)
        #expect(record.observedTimeUnixNano == 1_795_958_500_000_000_000)
        let values = attributes(record)
        #expect(values["exception.type"] == .string("SIGSEGV"))
        #expect(values["swift_crash_reporter.report.id"] == .string(ReportFixture.reportID))
        #expect(values["swift_crash_reporter.suppressed"] == .int(3))
        guard case .string(let stack)? = values["exception.stacktrace"] else {
            Issue.record("no stack trace")
            return
        }
        #expect(stack.contains("Orders.place() at ~/src/Orders.swift:12"), "\(stack)")
        #expect(!stack.contains("/home/builder"))
        guard case .string(let signature)? = values["swift_crash_reporter.signature"] else { return }
        #expect(signature.hasPrefix("SIGSEGV"))
        let resource = Dictionary(export.resource.map { ($0.key, $0.value) }) { $1 }
        #expect(resource["team"] == .string("payments"))
        #expect(resource["telemetry.sdk.name"] == .string("swift-crash-reporter"))
        #expect(export.resource.first?.key == "service.name")
    }

    @Test("hangs and abnormal exits are ERROR, snapshots WARN; none has exception attributes", arguments: [0, 1, 2])
    func otherKinds(which: Int) throws {
        let fixture = [ReportFixture.hang(), ReportFixture.abnormalExit(), ReportFixture.snapshot()][which]
        let record = try #require(
            OTLPLogExport(report: try outgoing(fixture), settings: settings, observed: .now()).records.first)
        let expected = [(17, "ERROR", "hang"), (17, "ERROR", "abnormal_exit"), (13, "WARN", "snapshot")][which]
        #expect(record.severityNumber == expected.0 && record.severityText == expected.1)
        #expect(record.eventName == "swift_crash_reporter.\(expected.2)")
        let values = attributes(record)
        #expect(values["exception.type"] == nil && values["exception.stacktrace"] == nil)
        #expect(values["swift_crash_reporter.reason"] != nil)
        #expect(values["swift_crash_reporter.report.kind"] == .string(expected.2))
    }

    @Test("OTLP/JSON: lowerCamelCase, 64-bit integers as strings, the severity as a number")
    func json() throws {
        let export = OTLPLogExport(report: try outgoing(ReportFixture.valid()), settings: settings, observed: .now())
        let value = try JSON.parse(export.json)
        let record = try #require(
            value["resourceLogs"]?.arrayValue?.first?["scopeLogs"]?.arrayValue?.first?["logRecords"]?.arrayValue?.first)
        #expect(record["timeUnixNano"] == .string(String(UInt64(ReportFixture.crashTime) * 1_000_000)))
        #expect(record["severityNumber"] == .number(.int(21)))
        let suppressed = record["attributes"]?.arrayValue?.first { $0["key"] == "swift_crash_reporter.suppressed" }
        #expect(suppressed?["value"] == ["intValue": "3"])
    }

    @Test("a long text is cut on a character boundary, and says so")
    func cut() {
        let text = String(repeating: "é", count: OTLPLogExport.maxTextBytes)
        let cut = OTLPLogExport.cut(text)
        #expect(cut.utf8.count <= OTLPLogExport.maxTextBytes)
        #expect(cut.hasSuffix("... cut at \(OTLPLogExport.maxTextBytes) bytes"))
        #expect(OTLPLogExport.cut("short") == "short")
    }

    @Test("partial success is read from protobuf and JSON answers; unknown fields are skipped")
    func partialSuccess() throws {
        var writer = ProtobufWriter()
        writer.string(9, "unknown")
        writer.message(1) { partial in
            partial.integer(1, 2)
            partial.string(2, "bad attribute")
        }
        #expect(
            try OTLPPartialSuccess(protobuf: writer.bytes)
                == OTLPPartialSuccess(rejectedLogRecords: 2, errorMessage: "bad attribute"))
        #expect(try OTLPPartialSuccess(protobuf: []).isEmpty)
        #expect(
            try OTLPPartialSuccess(
                json: Array(#"{"partialSuccess":{"rejectedLogRecords":"1","errorMessage":"x"}}"#.utf8))
                == OTLPPartialSuccess(rejectedLogRecords: 1, errorMessage: "x"))
        #expect(
            try OTLPPartialSuccess(json: Array(#"{"partialSuccess":{"rejectedLogRecords":4}}"#.utf8)).rejectedLogRecords
                == 4)
        #expect(try OTLPPartialSuccess(json: Array("{}".utf8)).isEmpty)
        #expect(throws: ProtobufError.self) { try OTLPPartialSuccess(protobuf: [0x0a, 0x05, 0x08]) }
    }
}
