import CrashReportFormat
import CrashReportSentry
import CrashReporterHTTP
import CrashReporterSupport
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import CrashReportDelivery

/// The pipeline's stages seen from outside, with a transport that answers at once: what it
/// encodes is what it sends, a report it cannot encode is rejected with the encoder's words and
/// never sent, and the session of an ended run that the store kept goes out at the end of a pass.
@Suite("The next-launch pipeline")
struct NextLaunchPipelineTests {
    /// A transport that records what it is given; `refusal` makes `encode` fail with it.
    final class Recording: ReportTransport {
        let refusal: String?
        let url: HTTPURL
        let sent = Mutex<[EncodedReport]>([])
        let sessions = Mutex<[SentrySession]>([])

        init(refusal: String? = nil) throws {
            self.refusal = refusal
            self.url = try HTTPURL("http://127.0.0.1/api/reports")
        }

        var wantsSymbols: Bool { false }

        func encode(_ report: OutgoingReport) throws(TransportEncodingError) -> EncodedReport {
            if let refusal { throw TransportEncodingError(refusal) }
            return EncodedReport(id: report.id, request: HTTPRequest(url: url, method: "POST", body: report.fileData))
        }

        func send(_ encoded: EncodedReport) -> DeliveryOutcome {
            sent.withLock { $0.append(encoded) }
            return .delivered
        }

        func send(sessions: [SentrySession]) -> DeliveryOutcome {
            self.sessions.withLock { $0 += sessions }
            return .delivered
        }
    }

    let state: String
    let store: ReportStore
    let id = ReportFixture.reportID
    let file: Data

    init() throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state + "/pending", withIntermediateDirectories: true)
        store = ReportStore(stateDirectory: state)
        file = try ReportFixture.gzip(ReportFixture.valid())
        try file.write(to: URL(fileURLWithPath: store.pending + "/\(id).crash"))
    }

    @Test("a report the transport encodes is sent once, in its encoded form, and delivered")
    func encodedAndSent() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let transport = try Recording()
        let summary = try NextLaunchPipeline(store: store, transport: transport).run()
        #expect(summary.delivered == [id])
        let sent = transport.sent.withLock { $0 }
        #expect(sent.map(\.id) == [id])
        #expect(sent.first?.request.body == Array(file))
        #expect(FileManager.default.fileExists(atPath: store.delivered + "/\(id).crash"))
    }

    @Test("a report the transport cannot encode is rejected with the encoder's reason, and never sent")
    func encodingFailureIsRejection() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let transport = try Recording(refusal: "cannot build the envelope: the test says no")
        let summary = try NextLaunchPipeline(store: store, transport: transport).run()
        #expect(summary.rejected == [id])
        #expect(summary.retrying.isEmpty && summary.delivered.isEmpty)
        #expect(transport.sent.withLock { $0 }.isEmpty)
        let note = try #require(store.rejection(id: id))
        #expect(note.reason == "cannot build the envelope: the test says no")
        #expect(note.status == nil)
        #expect(FileManager.default.fileExists(atPath: store.rejected + "/\(id).crash"))
        #expect(store.pendingReports().isEmpty)
    }

    @Test("the session of an ended crashed run is written by the store, then sent at the end of a pass")
    func sessionOfEndedRun() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let run = EndedRun(
            started: Timestamp(milliseconds: 1_700_000_000_000), ended: Timestamp(milliseconds: 1_700_000_090_500),
            ending: .crashed, release: "2.4.1", environment: "staging")
        try store.keepSession(of: run)
        let files = store.pendingSessionFiles()
        try #require(files.count == 1)
        let kept = try #require(store.readSession(files[0]))
        #expect(kept.status == .crashed)
        #expect(kept.errors == 1)
        #expect(kept.duration == 90.5)
        #expect(kept.started == Timestamp(milliseconds: 1_700_000_000_000).iso8601)
        #expect(kept.attrs.release == "2.4.1" && kept.attrs.environment == "staging")
        #expect(files[0].hasSuffix("/\(kept.sid).session"))

        let transport = try Recording()
        _ = try NextLaunchPipeline(store: store, transport: transport).run()
        #expect(transport.sessions.withLock { $0 } == [kept])
        #expect(!store.hasPendingSessions)
    }

    @Test("an exited run's session counts no error, and two runs get two sessions")
    func sessionsOfExitedRuns() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let run = EndedRun(
            started: Timestamp(milliseconds: 1_000), ended: Timestamp(milliseconds: 2_000), ending: .exited,
            release: nil, environment: nil)
        try store.keepSession(of: run)
        try store.keepSession(of: run)
        let kept = store.pendingSessionFiles().compactMap(store.readSession)
        #expect(kept.count == 2)
        #expect(Set(kept.map(\.sid)).count == 2)
        #expect(kept.allSatisfy { $0.status == .exited && $0.errors == 0 && $0.attrs.release == nil })
    }
}
