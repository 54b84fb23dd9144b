import Foundation
import TestSupport
import Testing

@testable import crashreport

/// `list`, `stats` and `show` over a state directory holding crashes (versions 1 and 2), a
/// snapshot and a hang.
@Suite("crashreport with snapshots and hangs")
struct ReportKindsCommandTests {
    /// A state directory with four pending reports; their ids by what they are.
    static func stateDirectory() throws -> (path: String, ids: [String: String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinds-\(UUID().uuidString)")
        let pending = directory.appendingPathComponent("pending")
        try FileManager.default.createDirectory(at: pending, withIntermediateDirectories: true)
        var ids: [String: String] = [:]
        for (name, object) in [
            ("v1", ReportFixture.valid()), ("v2", ReportFixture.validV2()), ("snapshot", ReportFixture.snapshot()),
            ("hang", ReportFixture.hang()),
        ] {
            let id = UUID().uuidString.lowercased()
            ids[name] = id
            var report = object
            report["report_id"] = id
            try ReportFixture.gzip(report).write(to: pending.appendingPathComponent("\(id).crash"))
        }
        return (directory.path, ids)
    }

    @Test func listShowsTheKindWhereTheSignalWouldBe() throws {
        let (directory, ids) = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = CommandRunTests.run(["list", directory])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        func line(_ name: String) -> String? { lines.first { $0.contains(ids[name]!) } }
        #expect(line("hang")?.hasSuffix("hang     Hang — db-poller") == true, "\(lines)")
        #expect(line("snapshot")?.hasSuffix("snapshot Snapshot — Cache.Rebuild slow") == true, "\(lines)")
        #expect(line("v1")?.hasSuffix("SIGSEGV  crash-test+0x201234 — Index out of range") == true, "\(lines)")
        #expect(line("v2")?.hasSuffix("SIGSEGV  crash-test+0x201234 — Index out of range") == true, "\(lines)")

        let json = CommandRunTests.run(["list", "--json", directory])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let kinds = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as! String, $0["kind"] as! String) })
        #expect(
            kinds == [ids["v1"]!: "crash", ids["v2"]!: "crash", ids["snapshot"]!: "snapshot", ids["hang"]!: "hang"])
    }

    @Test func statsCountsTheKindsApart() throws {
        let (directory, _) = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = CommandRunTests.run(["stats", directory])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasPrefix("4 reports (2 crashes, 1 snapshot, 1 hang) in 3 groups\n"), "\(run.output)")
        #expect(
            run.output.contains(
                "\n2×  crash-test+0x201234 — Index out of range\n    SIGSEGV | crash-test+0x201234 | Index out of range\n"
            ), "\(run.output)")
        #expect(run.output.contains("\n1×  Hang — db-poller\n    hang | db-poller\n"))
        #expect(run.output.contains("\n1×  Snapshot — Cache.Rebuild slow\n    snapshot | Cache.Rebuild slow\n"))
        #expect(run.output.contains("    versions 1.0.0 2×\n"))
        let json = CommandRunTests.run(["stats", "--json", directory])
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(Set(groups.compactMap { $0["kind"] as? String }) == ["crash", "snapshot", "hang"])
    }

    @Test func onlyCrashesKeepTheOldHeadline() {
        let crash = StatsCommand.Group(
            kind: "crash", title: "a — SIGSEGV", signature: "SIGSEGV | a", count: 3, firstSeen: "", lastSeen: "",
            versions: [])
        #expect(StatsCommand.headline([crash]) == "3 crashes in 1 group")
        var hang = crash
        (hang.kind, hang.count) = ("hang", 2)
        #expect(StatsCommand.headline([crash, hang]) == "5 reports (3 crashes, 2 hangs) in 2 groups")
        #expect(StatsCommand.headline([]) == "0 crashes in 0 groups")
    }

    @Test func showPrintsEveryThreadOfAHang() throws {
        let (directory, ids) = try Self.stateDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = CommandRunTests.run(["show", "--no-symbols", "--dir", directory, ids["hang"]!])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasPrefix("Hang report \(ids["hang"]!)\n"))
        #expect(run.output.contains("Thread 4242 \"crash-test\" (main thread), 1 frame:"))
        #expect(run.output.contains("Thread 4250 \"worker\", 7 frames:"))
        #expect(run.output.contains("  ... 300 frames omitted ...\n"))
    }
}
