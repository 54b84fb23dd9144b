import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import CrashReportDelivery

/// Which files the retention bounds remove: the oldest first, only as many as needed.
@Suite("Retention")
struct RetentionTests {
    /// Files f0 (oldest) … f(n-1), `bytes` each, one day apart ending at day `n - 1`.
    func files(_ n: Int, bytes: Int = 100) -> [Retention.File] {
        (0..<n).map { Retention.File(path: "f\($0)", bytes: bytes, time: Double($0) * 86400) }
    }

    @Test("a count bound removes the oldest beyond it")
    func countBound() {
        #expect(
            Retention.excess(files(10), maxCount: 4, maxBytes: 0).map(\.path) == ["f0", "f1", "f2", "f3", "f4", "f5"])
        #expect(Retention.excess(files(4), maxCount: 4, maxBytes: 0).isEmpty, "at the bound nothing goes")
    }

    @Test("a byte bound removes the oldest until the rest fits")
    func byteBound() {
        var list = files(5)
        list[4].bytes = 250
        // 100 × 4 + 250 = 650; at most 400: f0, f1, f2 go (350 left).
        #expect(Retention.excess(list, maxCount: 0, maxBytes: 400).map(\.path) == ["f0", "f1", "f2"])
    }

    @Test("an age bound removes what is older, and 0 means no bound")
    func ageBound() {
        let now = 9.5 * 86400
        #expect(Retention.excess(files(10), maxCount: 0, maxBytes: 0, maxAge: 3 * 86400, now: now).count == 7)
        #expect(Retention.excess(files(10), maxCount: 0, maxBytes: 0, maxAge: 0, now: now).isEmpty)
    }

    @Test("the bounds hold on disk: pending/ keeps the newest, counts what it removed, and old delivered ones go")
    func onDisk() throws {
        let directory = TempDirectory()
        let store = ReportStore(stateDirectory: directory.path)
        let ids = (0..<6).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        for (n, id) in ids.enumerated() {
            try ReportFixture.plantPending(id: id, in: directory.path)
            try FileSystem.writeAtomically(Array("{}".utf8), to: store.statePath(id: id))
            let time = Date(timeIntervalSince1970: 1_800_000_000 + Double(n))
            try FileManager.default.setAttributes(
                [.modificationDate: time], ofItemAtPath: store.pending + "/\(id).crash")
        }
        try FileManager.default.createDirectory(atPath: store.delivered, withIntermediateDirectories: true)
        let old = store.delivered + "/old.crash"
        #expect(FileManager.default.createFile(atPath: old, contents: Data([1])))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: old)

        let limits = DeliveryLimits(maxPendingReports: 4, maxPendingBytes: 0, retention: .days(30))
        let removed = Retention.apply(to: store, limits: limits, now: Timestamp(seconds: 1_800_000_100))
        #expect(removed == 2)
        #expect(store.pendingReports().map { ReportStore.id(of: $0) } == Array(ids.suffix(4)))
        #expect(!FileManager.default.fileExists(atPath: store.statePath(id: ids[0])), "its retry state goes too")
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(Retention.apply(to: store, limits: limits, now: Timestamp(seconds: 1_800_000_100)) == 0)
    }

    @Test("opting out deletes the withheld reports with the pending ones")
    func optOutDeletesWithheld() throws {
        let directory = TempDirectory()
        let store = ReportStore(stateDirectory: directory.path)
        let ids = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"]
        for id in ids { try ReportFixture.plantPending(id: id, in: directory.path) }
        try store.markWithheld(store.pending + "/\(ids[0]).crash")
        #expect(ReportStore.reports(in: store.withheld).count == 1)
        store.deletePending()
        #expect(store.pendingReports().isEmpty)
        #expect(ReportStore.reports(in: store.withheld).isEmpty)
    }
}
