import CrashReportFormat
import CrashReportSentry
import CrashReporterHTTP
import Foundation
import TestSupport
import Testing

@testable import CrashReportDelivery

/// A report delivered over https to a loopback receiver (Scripts/fault_server.py with a
/// certificate that the test CA signed): trusted through `SSL_CERT_FILE`, it reaches a plain
/// endpoint and a Sentry-style one; without that trust the report stays pending with the TLS
/// verification failure as its last error.
@Suite("Delivery over TLS")
struct TLSDeliveryTests {
    let certificates: TestCertificates
    let state: String
    let store: ReportStore
    let id = ReportFixture.reportID
    let file: Data

    init() throws {
        certificates = try TestCertificates.shared.get()
        state = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state + "/pending", withIntermediateDirectories: true)
        store = ReportStore(stateDirectory: state)
        file = try ReportFixture.gzip(ReportFixture.valid())
        try file.write(to: URL(fileURLWithPath: store.pending + "/\(id).crash"))
    }

    func deliver(with transport: any ReportTransport) throws -> DeliverySummary {
        defer { try? FileManager.default.removeItem(atPath: state) }
        return try NextLaunchPipeline(store: store, transport: transport).run()
    }

    @Test("a plain endpoint over https gets the file as written, with its id and our User-Agent")
    func plainEndpoint() throws {
        let server = try FaultServer(responses: ["201"], tls: certificates)
        let transport = HTTPEndpointTransport(
            url: try HTTPURL(server.url), timeout: .seconds(10), environment: ["SSL_CERT_FILE": certificates.caFile])
        let summary = try deliver(with: transport)
        #expect(summary.delivered == [id])
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request["path"] as? String == "/api/reports")
        #expect(FaultServer.header(request, "X-Crash-Report-ID") == id)
        #expect(FaultServer.header(request, "Content-Type") == "application/gzip")
        #expect(FaultServer.header(request, "User-Agent") == "swift-crash-reporter/\(CrashReportVersion.current)")
        #expect(server.body(0) == file)
    }

    @Test("a Sentry project over https gets a gzip envelope whose event is the report")
    func sentryEndpoint() throws {
        let server = try FaultServer(responses: ["200"], tls: certificates)
        let dsn = try SentryDSN("https://publickey123@127.0.0.1:\(server.port)/42")
        let transport = try SentryTransport(
            dsn: dsn, release: nil, environment: nil, timeout: .seconds(10),
            clientEnvironment: ["SSL_CERT_FILE": certificates.caFile])
        let summary = try deliver(with: transport)
        #expect(summary.delivered == [id])
        let request = try #require(server.requests.first)
        #expect(request["path"] as? String == "/api/42/envelope/")
        #expect(FaultServer.header(request, "Content-Encoding") == "gzip")
        #expect(FaultServer.header(request, "X-Sentry-Auth")?.contains("sentry_key=publickey123") == true)
        let envelope = try #require(request["envelope"] as? [String: Any])
        let header = try #require(envelope["header"] as? [String: Any])
        #expect(header["event_id"] as? String == id.replacingOccurrences(of: "-", with: ""))
        let items = try #require(envelope["items"] as? [[String: Any]])
        #expect((items.first?["payload"] as? [String: Any])?["level"] as? String == "fatal")
    }

    @Test("an untrusted certificate keeps the report pending, with the verification failure as its last error")
    func untrustedCertificate() throws {
        let server = try FaultServer(responses: ["201"], tls: certificates)
        // No SSL_CERT_FILE: the system's trust store, which does not know the test CA.
        let transport = HTTPEndpointTransport(url: try HTTPURL(server.url), timeout: .seconds(10), environment: [:])
        let pendingFile = store.pending + "/\(id).crash"
        let summary = try NextLaunchPipeline(store: store, transport: transport).run()
        defer { try? FileManager.default.removeItem(atPath: state) }
        #expect(summary.delivered.isEmpty && summary.rejected.isEmpty)
        #expect(summary.retrying[id] != nil)
        #expect(FileManager.default.fileExists(atPath: pendingFile))
        let lastError = try #require(store.state(id: id).lastError)
        #expect(lastError.contains("certificate verify failed"), "\(lastError)")
        #expect(!lastError.contains("\n"))
        #expect(server.requests.isEmpty)
    }
}
