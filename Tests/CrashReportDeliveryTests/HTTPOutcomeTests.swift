import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import CrashReportDelivery

/// How an exchange with a real loopback server becomes a `DeliveryOutcome`: a retry after the
/// server's wait with its status and words on one line, or the client's one-line reason for no
/// answer.
@Suite("HTTP outcomes")
struct HTTPOutcomeTests {
    let report: OutgoingReport

    init() throws {
        // The plain transport sends the bytes it is given: any will do.
        report = OutgoingReport(
            id: "00000000-0000-4000-8000-000000000001", fileData: Array("the file as written".utf8),
            report: try ReportDecoding.decode(gzipData: try ReportFixture.gzip(ReportFixture.valid())),
            symbols: ReportSymbols())
    }

    @Test("a 503 with Retry-After: the status, the wait and the server's words")
    func serverAnswer() throws {
        let server = try FaultServer(responses: ["503@120"])
        let transport = HTTPEndpointTransport(url: try HTTPURL(server.url), timeout: .seconds(10), environment: [:])
        let outcome = transport.send(try transport.encode(report))
        guard case .retryAfter(let retryAfter, let reason) = outcome else {
            Issue.record("not retried: \(outcome)")
            return
        }
        #expect(reason.hasPrefix("HTTP 503: "))
        #expect(retryAfter == .seconds(120))
        #expect(reason.contains("test server says 503"))
        #expect(server.body(0) == Data(report.fileData))
    }

    @Test("nothing listening: a network error naming the refusal, on one line")
    func refused() throws {
        let url = try HTTPURL("http://127.0.0.1:\(closedPort())/api/reports")
        let transport = HTTPEndpointTransport(url: url, timeout: .seconds(10), environment: [:])
        let outcome = transport.send(try transport.encode(report))
        guard case .retryAfter(nil, let reason) = outcome, reason.hasPrefix("network error: ") else {
            Issue.record("not a network error: \(outcome)")
            return
        }
        #expect(reason.contains("connection refused"))
        #expect(!reason.contains("\n"))
    }

    @Test("the server's words are cut to one bounded line")
    func reasonIsOneLine() {
        let body = Array("first line\r\nsecond\nthird  \n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        let reason = DeliveryOutcome.reason(from: body)
        #expect(reason.hasPrefix("first line second third"))
        #expect(!reason.contains("\n") && !reason.contains("\r"))
        #expect(reason.utf8.count <= 400)
    }
}
