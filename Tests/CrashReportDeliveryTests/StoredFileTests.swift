import CrashReporterSupport
import Foundation
import Testing

@testable import CrashReportDelivery

/// The retry states and rejection notes that earlier versions wrote with Foundation's
/// `JSONEncoder` (`.iso8601` dates: whole seconds, `Z`; sorted keys; `\/` escapes) are read by
/// today's store, and what it writes now reads back the same.
@Suite("Stored delivery files")
struct StoredFileTests {
    /// The earlier version's types, as it encoded them.
    struct EarlierState: Encodable {
        var attempts: Int
        var firstAttempt: Date?
        var nextAttempt: Date?
        var lastError: String?

        enum CodingKeys: String, CodingKey {
            case attempts
            case firstAttempt = "first_attempt"
            case nextAttempt = "next_attempt"
            case lastError = "last_error"
        }
    }

    struct EarlierNote: Encodable {
        var status: Int?
        var reason: String
        var at: Date
    }

    static func earlierEncoding(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    let store: ReportStore

    init() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stored-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/pending", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/rejected", withIntermediateDirectories: true)
        store = ReportStore(stateDirectory: dir)
    }

    @Test("a retry state written by the earlier version is read with its times and error")
    func earlierState() throws {
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        let earlier = EarlierState(
            attempts: 3, firstAttempt: Date(timeIntervalSince1970: 1_795_958_405),
            nextAttempt: Date(timeIntervalSince1970: 1_795_962_005), lastError: "HTTP 503: see https://x/y")
        try Self.earlierEncoding(earlier).write(to: URL(fileURLWithPath: store.pending + "/a.delivery"))
        #expect(
            store.state(id: "a")
                == DeliveryState(
                    attempts: 3, firstAttempt: Timestamp(seconds: 1_795_958_405),
                    nextAttempt: Timestamp(seconds: 1_795_962_005), lastError: "HTTP 503: see https://x/y"))
        let fresh = EarlierState(attempts: 0)
        try Self.earlierEncoding(fresh).write(to: URL(fileURLWithPath: store.pending + "/b.delivery"))
        #expect(store.state(id: "b") == DeliveryState())
    }

    @Test("a rejection note written by the earlier version is read, with and without a status")
    func earlierNote() throws {
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        let at = Date(timeIntervalSince1970: 1_795_958_405)
        try Self.earlierEncoding(EarlierNote(status: 401, reason: "bad key", at: at))
            .write(to: URL(fileURLWithPath: store.rejected + "/a.reason"))
        #expect(
            store.rejection(id: "a")
                == RejectionNote(status: 401, reason: "bad key", at: Timestamp(seconds: 1_795_958_405)))
        try Self.earlierEncoding(EarlierNote(status: nil, reason: "damaged report: truncated", at: at))
            .write(to: URL(fileURLWithPath: store.rejected + "/b.reason"))
        #expect(store.rejection(id: "b")?.status == nil)
        #expect(store.rejection(id: "b")?.reason == "damaged report: truncated")
    }

    @Test("what the store writes now: sorted keys, ISO 8601 times with milliseconds, read back equal")
    func currentFormat() throws {
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        let state = DeliveryState(
            attempts: 2, firstAttempt: Timestamp(milliseconds: 1_795_958_405_123),
            nextAttempt: Timestamp(milliseconds: 1_795_958_465_500), lastError: "timed out")
        try store.save(state, id: "c")
        let text = try String(contentsOfFile: store.pending + "/c.delivery", encoding: .utf8)
        #expect(
            text
                == #"{"attempts":2,"first_attempt":"2026-11-29T13:20:05.123Z","last_error":"timed out","#
                + #""next_attempt":"2026-11-29T13:21:05.500Z"}"#)
        #expect(store.state(id: "c") == state)
    }

    @Test("an unreadable retry state counts as none: the report is retried as new")
    func unreadableState() throws {
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        for (id, text) in [("x", "{"), ("y", #"{"attempts":1,"next_attempt":"tomorrow"}"#), ("z", "[]")] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: store.pending + "/\(id).delivery"))
            #expect(store.state(id: id) == DeliveryState(), "\(text)")
        }
    }
}
