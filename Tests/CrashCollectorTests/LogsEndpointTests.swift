import CrashReporterSupport
import Foundation
import Testing

/// `POST /v1/logs` on a running collector: both encodings, answers in the request's encoding,
/// a retried record stored once, bad requests refused whole.
@Suite struct LogsEndpointTests {
    static func record(id: String?, severity: Int = 21) -> String {
        let attribute =
            id.map { #",{"key":"swift_crash_reporter.report.id","value":{"stringValue":"\#($0)"}}"# } ?? ""
        return #"{"timeUnixNano":"1700000000000000000","severityNumber":\#(severity),"body":{"stringValue":"b"},"#
            + #""attributes":[{"key":"exception.type","value":{"stringValue":"SIGSEGV"}}\#(attribute)]}"#
    }

    static func export(_ records: [String]) -> Data {
        Data(#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[\#(records.joined(separator: ","))]}]}]}"#.utf8)
    }

    static let json = [("Content-Type", "application/json")]

    @Test func jsonRecordsAreStoredOncePerReportIDAndListed() throws {
        let collector = try CollectorProcess([])
        defer { collector.stop() }
        let id = "3f1c2a9e-7b4d-4c1e-9a55-0d2e8b7c6a10"
        for _ in 0..<2 {
            let answer = try collector.request(
                "POST", "/v1/logs", headers: Self.json, body: Self.export([Self.record(id: id)]))
            #expect(answer.status == 200)
            #expect(answer.json?.isEmpty == true, "all kept: an empty ExportLogsServiceResponse")
        }
        #expect(collector.files(in: "logs-otlp", suffix: ".json") == ["\(id).json"])
        let partial = try collector.request(
            "POST", "/v1/logs", headers: Self.json,
            body: Self.export([Self.record(id: nil), Self.record(id: nil, severity: 30)]))
        let success = partial.json?["partialSuccess"] as? [String: Any]
        #expect(success?["rejectedLogRecords"] as? String == "1")
        #expect((success?["errorMessage"] as? String)?.contains("severity_number 30") == true)
        let listing = try collector.request("GET", "/api/logs")
        #expect(listing.json?["count"] as? Int == 2)
    }

    @Test func refusalsComeInTheRequestsEncoding() throws {
        let collector = try CollectorProcess([])
        defer { collector.stop() }
        let wrongType = try collector.request(
            "POST", "/v1/logs", headers: [("Content-Type", "text/plain")], body: Data("x".utf8))
        #expect(wrongType.status == 415)
        let notJSON = try collector.request("POST", "/v1/logs", headers: Self.json, body: Data("{".utf8))
        #expect(notJSON.status == 400 && notJSON.json?["code"] as? Int == 3)
        let truncated = try collector.request(
            "POST", "/v1/logs", headers: [("Content-Type", "application/x-protobuf")], body: Data([0x0a, 0x09, 0x01]))
        #expect(truncated.status == 400)
        #expect(truncated.headers["content-type"] == "application/x-protobuf")
        var status = ProtobufReader([UInt8](truncated.body))
        #expect(try status.next()?.value == .varint(3), "google.rpc.Status.code INVALID_ARGUMENT")
        #expect(try status.next()?.value.string?.hasPrefix("not an OTLP logs export") == true)
        let many = try collector.request(
            "POST", "/v1/logs", headers: Self.json,
            body: Self.export(Array(repeating: Self.record(id: nil), count: 1001)))
        #expect(many.status == 413)
        #expect(collector.files(in: "logs-otlp", suffix: ".json").isEmpty)
    }
}
