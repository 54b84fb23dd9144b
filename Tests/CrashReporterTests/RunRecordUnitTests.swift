import CCrashReporter
import CrashReportFormat
import Foundation
import TestSupport
import Testing

@testable import CrashReporter

/// The run record's text, the `/proc` parsers, the classification and the ledger's settling,
/// on records made here (RunRecordTests in IntegrationTests kills real processes).
struct RunRecordUnitTests {
    static func record(state: RunRecord.State = .running, pid: Int32 = 4242, ticks: UInt64 = 777) -> RunRecord {
        var record = RunRecord(
            pid: pid, startTicks: ticks, startedMs: 1_795_958_405_123, bootID: "boot-a",
            oomCounterPath: "/sys/fs/cgroup/memory/svc/memory.oom_control", oomKills: 2, app: "orders",
            version: "1.4.2", build: "7", environment: "production")
        record.state = state
        return record
    }

    @Test func textRoundTrips() throws {
        for state in [
            RunRecord.State.running, .exited, .crashed(reportID: nil),
            .crashed(reportID: UUID().uuidString.lowercased()),
        ] {
            let record = Self.record(state: state)
            #expect(RunRecord(parsing: record.text) == record)
            // The state line is exactly as wide as the C side overwrites it.
            #expect(Array(record.text.utf8).firstIndex(of: UInt8(ascii: "\n")) == Int(SCR_RUN_STATE_LINE) - 1)
        }
    }

    @Test func aNewlineInAValueDoesNotMakeAKey() throws {
        var record = Self.record()
        record.app = "orders\npid 1"
        let parsed = try #require(RunRecord(parsing: record.text))
        #expect(parsed.pid == 4242 && parsed.app == "orders pid 1")
    }

    @Test func theLastRunFileRoundTrips() {
        let outcomes: [LastRun.Outcome] = [
            .clean, .crashed(reportID: nil), .crashed(reportID: "3f1c2a9e-7b4d-4c1e-9a55-0d2e8b7c6a10"),
            .abnormal(.oomKill),
        ]
        for outcome in outcomes {
            let stored = RunLedger.Stored(lastRun: LastRun(outcome: outcome, consecutiveFailures: 2), startedMs: 7)
            #expect(RunLedger.Stored(parsing: stored.text) == stored)
        }
        #expect(
            RunLedger.Stored(parsing: "outcome abnormal\nclass vanished\nstarted_ms 1\nconsecutive_failures 0\n") == nil
        )
        #expect(RunLedger.Stored(parsing: "outcome clean\nstarted_ms 1\n") == nil)
    }

    @Test func damagedRecordsAreNotRecords() {
        #expect(RunRecord(parsing: "") == nil)
        #expect(RunRecord(parsing: "running\npid 1\n") == nil)
        let text = Self.record().text
        #expect(RunRecord(parsing: String(text.prefix(60))) == nil, "half written")
        #expect(RunRecord(parsing: "sleeping" + text.dropFirst(8)) == nil)
    }

    @Test func startTicksAreCountedFromTheLastParenthesis() {
        let fields = (4...52).map(String.init).joined(separator: " ")
        // Field 22 is the 20th after the command; the numbers here are field numbers + 0.
        #expect(ProcessFacts.parseStartTicks("42 (a) b) c (d) S \(fields)") == 22)
        #expect(ProcessFacts.parseStartTicks("42 (short) S 1 2") == nil)
        #expect(ProcessFacts.parseStartTicks("42 (gone) Z \(fields)") == nil, "a zombie's run is over")
        #expect(ProcessFacts.parseStartTicks("no parenthesis") == nil)
        #expect(ProcessFacts.startTicks(pid: getpid()) != nil)
    }

    @Test func counterFilesOfBothCgroupVersions() {
        let v1 = "12:memory:/system.slice/orders.service\n11:cpu,cpuacct:/x\n0::/ignored\n"
        #expect(
            ProcessFacts.counterPaths(cgroups: v1, root: "/sys/fs/cgroup") == [
                "/sys/fs/cgroup/memory/system.slice/orders.service/memory.oom_control",
                "/sys/fs/cgroup/ignored/memory.events",
            ])
        #expect(ProcessFacts.counterPaths(cgroups: "0::/\n", root: "/r") == ["/r/memory.events"])
        #expect(ProcessFacts.parseOOMKills("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n") == 3)
        #expect(ProcessFacts.parseOOMKills("low 0\nhigh 0\nmax 4\noom 2\noom_kill 1\noom_group_kill 0\n") == 1)
        #expect(ProcessFacts.parseOOMKills("oom 2\n") == nil)
    }

    @Test func classification() {
        typealias Facts = RunClassifier.Facts
        let running = Self.record()
        let alive = Facts(bootID: "boot-a", startTicksOfPID: 777, oomKillsNow: 2)
        #expect(RunClassifier.outcome(of: running, facts: alive) == nil, "its process still runs")
        let recycled = Facts(bootID: "boot-a", startTicksOfPID: 900, oomKillsNow: 2)
        #expect(
            RunClassifier.outcome(of: running, facts: recycled) == .abnormal(.killed), "another process has the pid")
        let gone = Facts(bootID: "boot-a", startTicksOfPID: nil, oomKillsNow: 2)
        #expect(RunClassifier.outcome(of: running, facts: gone) == .abnormal(.killed))
        let oom = Facts(bootID: "boot-a", startTicksOfPID: nil, oomKillsNow: 3)
        #expect(RunClassifier.outcome(of: running, facts: oom) == .abnormal(.oomKill))
        let cgroupGone = Facts(bootID: "boot-a", startTicksOfPID: nil, oomKillsNow: nil)
        #expect(RunClassifier.outcome(of: running, facts: cgroupGone) == .abnormal(.killed))
        // After a reboot the same pid and ticks are a coincidence, not the same process.
        let rebooted = Facts(bootID: "boot-b", startTicksOfPID: 777, oomKillsNow: 9)
        #expect(RunClassifier.outcome(of: running, facts: rebooted) == .abnormal(.machineRestart))
        #expect(RunClassifier.outcome(of: Self.record(state: .exited), facts: gone) == .clean)
        #expect(RunClassifier.outcome(of: Self.record(state: .exited), facts: rebooted) == .clean)
        #expect(
            RunClassifier.outcome(of: Self.record(state: .crashed(reportID: "x")), facts: gone)
                == .crashed(reportID: "x"))
        #expect(RunClassifier.consecutiveFailures(after: .abnormal(.killed), previous: 2) == 3)
        #expect(RunClassifier.consecutiveFailures(after: .clean, previous: 2) == 0)
    }

    /// Records of processes that are gone (pid 0 never names one), settled in a directory.
    @Test func settlingWritesReportsSessionsAndTheLastRun() throws {
        let state = TempDirectory()
        let ledger = RunLedger(stateDirectory: state.path)
        try FileManager.default.createDirectory(atPath: ledger.directory, withIntermediateDirectories: true)
        let boot = try #require(ProcessFacts.bootID())
        func plant(_ state: RunRecord.State, started: Int64, ticks: UInt64) throws {
            var record = Self.record(state: state, pid: 0, ticks: ticks)
            record.bootID = boot
            record.startedMs = started
            record.oomCounterPath = nil
            record.oomKills = nil
            try record.text.write(toFile: ledger.directory + "/slot-\(ticks).run", atomically: true, encoding: .utf8)
        }
        #expect(ledger.settle(sessions: { true }) == nil, "the first run ever")
        try plant(.exited, started: 1000, ticks: 1)
        try plant(.running, started: 2000, ticks: 2)
        try plant(.crashed(reportID: nil), started: 3000, ticks: 3)
        let last = ledger.settle(sessions: { true })
        #expect(last == LastRun(outcome: .crashed(reportID: nil), consecutiveFailures: 2))
        let slots = state.files.filter { $0.hasSuffix(".run") }
        #expect(slots.count == 3, "slots are kept for reuse")
        #expect(slots.allSatisfy { state.contents($0)?.hasPrefix(RunLedger.settledLine) == true }, "\(slots)")

        let pending = state.path + "/pending"
        let names = try FileManager.default.contentsOfDirectory(atPath: pending)
        let reports = names.filter { $0.hasSuffix(".crash") }
        try #require(reports.count == 1, "one abnormal exit among the three: \(names)")
        let report = try ReportDecoding.decode(file: pending + "/" + reports[0])
        #expect(report.kind == .abnormalExit && report.abnormalExit?.exitClass == .killed)
        #expect(report.abnormalExit?.runStartedMs == 2000 && report.app.version == "1.4.2")
        #expect(!report.os.name.isEmpty || scr_is_installed() == 0)
        #expect(names.filter { $0.hasSuffix(".session") }.count == 3)

        // The next launch with nothing new settled still knows the last run.
        #expect(ledger.settle(sessions: { true }) == last)
        try plant(.exited, started: 4000, ticks: 4)
        #expect(ledger.settle(sessions: { false }) == LastRun(outcome: .clean, consecutiveFailures: 0))

        // Recording takes a free slot rather than a new file; the record is this process's.
        let recorded = ledger.settle(sessions: { false }) { bootID in
            RunLedger.thisRun(bootID: bootID, app: "a", version: "1", build: "", environment: "")
        }
        #expect(recorded == LastRun(outcome: .clean, consecutiveFailures: 0))
        let after = state.files.filter { $0.hasSuffix(".run") }
        #expect(after.count == 4)
        let running = after.compactMap { state.contents($0).flatMap(RunRecord.init(parsing:)) }
        #expect(running.map(\.pid) == [getpid()] && running.first?.state == .running)
    }

    @Test("an ended run goes to the delivery side as a neutral EndedRun, in no server's format")
    func endedRunOfASettledRun() {
        let crashed = RunLedger.Settled(
            record: Self.record(), outcome: .crashed(reportID: nil), endedMs: 1_795_958_465_123)
        let run = RunLedger.endedRun(crashed)
        #expect(run.ending == .crashed)
        #expect(run.started.milliseconds == 1_795_958_405_123 && run.ended.milliseconds == 1_795_958_465_123)
        #expect(run.release == "1.4.2" && run.environment == "production")
        var unnamed = Self.record()
        unnamed.version = ""
        unnamed.environment = ""
        let clean = RunLedger.endedRun(RunLedger.Settled(record: unnamed, outcome: .clean, endedMs: 1_795_958_405_124))
        #expect(clean.ending == .exited && clean.release == nil && clean.environment == nil)
        let killed = RunLedger.endedRun(
            RunLedger.Settled(record: unnamed, outcome: .abnormal(.oomKill), endedMs: 1_795_958_405_124))
        #expect(killed.ending == .abnormal)
    }
}
