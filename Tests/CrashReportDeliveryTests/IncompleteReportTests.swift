import CrashReporterSupport
import Foundation
import Testing

@testable import CrashReportDelivery

/// What a crash handler could not finish is set aside in `rejected/` with why, never sent.
@Suite("Incomplete reports")
struct IncompleteReportTests {
    func makeStore() throws -> ReportStore {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("incomplete-\(UUID().uuidString)")
        let store = ReportStore(stateDirectory: dir.path)
        try FileManager.default.createDirectory(atPath: store.pending, withIntermediateDirectories: true)
        return store
    }

    @Test("a failed write and a stale .crash.tmp are set aside with their reasons; the rest stays")
    func setAside() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        let files = [
            "full.crash.failed-28", "eio.crash.failed-5", "zlib.crash.failed-0", "old.crash.tmp", "young.crash.tmp",
            "whole.crash",
        ]
        for name in files { try Data(name.utf8).write(to: URL(fileURLWithPath: store.pending + "/" + name)) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: store.pending + "/old.crash.tmp")

        let now = Timestamp.now()
        #expect(store.setAsideIncomplete(now: now).sorted() == ["eio", "full", "old", "zlib"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: store.pending).sorted() == [
                "whole.crash", "young.crash.tmp",
            ])
        #expect(store.rejection(id: "full")?.reason == "incomplete report: writing it failed: no space left on device")
        #expect(store.rejection(id: "eio")?.reason == "incomplete report: writing it failed: input/output error")
        #expect(store.rejection(id: "zlib")?.reason == "incomplete report: it could not be compressed whole")
        #expect(store.rejection(id: "old")?.reason == "incomplete report: the process ended while writing it")
        let kept = try String(contentsOfFile: store.rejected + "/full.crash", encoding: .utf8)
        #expect(kept == "full.crash.failed-28", "the bytes are kept as they were")
        #expect(store.setAsideIncomplete(now: now).isEmpty, "nothing twice")
    }

    @Test("opting out deletes failed reports too")
    func optOut() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: store.stateDirectory) }
        try Data([1]).write(to: URL(fileURLWithPath: store.pending + "/a.crash.failed-28"))
        store.deletePending()
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.pending).isEmpty)
    }
}
