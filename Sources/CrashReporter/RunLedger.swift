import CCrashReporter
import CrashReportDelivery
import CrashReportFormat
import CrashReportSentry
import CrashReporterSupport
import Glibc
import Tracking

/// The run records of one state directory (`<state>/runs/`, docs/runs.md): at start, the runs
/// of earlier processes that have ended are settled (an abnormal-exit report for each that
/// neither exited nor crashed, a session for each when a transport is configured, the last
/// outcome kept in `runs/last-run.json`), then this run's record is written and handed to the
/// C side, which marks its end.
struct RunLedger {
    let stateDirectory: String
    var directory: String { stateDirectory + "/runs" }
    var lastRunPath: String { directory + "/last-run.json" }

    /// What `runs/last-run.json` keeps: the latest settled run and the failures in a row.
    struct Stored: Codable, Equatable {
        var outcome: String
        var reportID: String?
        var exitClass: String?
        var startedMs: Int64
        var consecutiveFailures: Int

        enum CodingKeys: String, CodingKey {
            case outcome
            case reportID = "report_id"
            case exitClass = "class"
            case startedMs = "started_ms"
            case consecutiveFailures = "consecutive_failures"
        }

        init(_ lastRun: LastRun, startedMs: Int64) {
            switch lastRun.outcome {
            case .clean: outcome = "clean"
            case .crashed(let id):
                outcome = "crashed"
                reportID = id
            case .abnormal(let exit):
                outcome = "abnormal"
                exitClass = exit.rawValue
            }
            self.startedMs = startedMs
            consecutiveFailures = lastRun.consecutiveFailures
        }

        var lastRun: LastRun? {
            let result: LastRun.Outcome
            switch outcome {
            case "clean": result = .clean
            case "crashed": result = .crashed(reportID: reportID)
            case "abnormal":
                guard let exit = exitClass.flatMap(LastRun.AbnormalExit.init(rawValue:)) else { return nil }
                result = .abnormal(exit)
            default: return nil
            }
            return LastRun(outcome: result, consecutiveFailures: max(consecutiveFailures, 0))
        }
    }

    /// A run found ended at this launch.
    struct Settled {
        var record: RunRecord
        var outcome: LastRun.Outcome
        /// When it ended, as far as this launch can tell (an upper bound).
        var endedMs: Int64
    }

    // MARK: settling the runs of earlier processes

    /// Settles every ended run under a short lock (siblings starting at once settle each run
    /// once), and says how the latest one ended; nil when no run of this directory has ended
    /// yet. `sessions` says whether to keep a session per run for the transport (asked only
    /// when a run has ended).
    func settle(sessions: () -> Bool, now: Timestamp = .now()) -> LastRun? {
        guard (try? FileSystem.createDirectory(directory)) != nil,
            let lock = DirectoryLock(path: directory + "/settle.lock", wait: true)
        else { return nil }
        defer { withExtendedLifetime(lock) {} }
        var stored = readStored()
        let names = ((try? FileSystem.contentsOfDirectory(directory)) ?? []).filter { $0.hasSuffix(".run") }
        guard !names.isEmpty else { return stored?.lastRun }
        let facts = (bootID: ProcessFacts.bootID(), bootTimeMs: ProcessFacts.bootTimeMs())
        var settled: [Settled] = []
        for name in names {
            let path = directory + "/" + name
            guard let bytes = try? FileSystem.read(path, limit: 16 << 10),
                let record = RunRecord(parsing: String(decoding: bytes, as: UTF8.self))
            else {
                // Half written by a start that was killed mid-way: gone after a minute.
                if let time = FileSystem.modificationTime(path), now.seconds - time > 60 {
                    _ = try? FileSystem.remove(path)
                }
                continue
            }
            let current = RunClassifier.Facts(
                bootID: facts.bootID, startTicksOfPID: ProcessFacts.startTicks(pid: record.pid),
                oomKillsNow: record.oomCounterPath.flatMap(ProcessFacts.oomKills(at:)))
            guard let outcome = RunClassifier.outcome(of: record, facts: current) else { continue }
            var ended = now.milliseconds
            if case .abnormal(.machineRestart) = outcome, let boot = facts.bootTimeMs { ended = min(ended, boot) }
            settled.append(Settled(record: record, outcome: outcome, endedMs: max(ended, record.startedMs)))
            _ = try? FileSystem.remove(path)
        }
        let store = ReportStore(stateDirectory: stateDirectory)
        let keepSessions = !settled.isEmpty && sessions()
        for run in settled.sorted(by: { $0.record.startedMs < $1.record.startedMs }) {
            if case .abnormal(let exit) = run.outcome { writeAbnormalReport(run, exit: exit, store: store) }
            if keepSessions { try? store.saveSession(Self.session(run)) }
            let failures = RunClassifier.consecutiveFailures(
                after: run.outcome, previous: stored?.consecutiveFailures ?? 0)
            // A sibling's run that started before the one already kept counts, but is not "last".
            let last = LastRun(outcome: run.outcome, consecutiveFailures: failures)
            if let kept = stored, kept.startedMs > run.record.startedMs {
                stored?.consecutiveFailures = RunClassifier.consecutiveFailures(
                    after: run.outcome, previous: kept.consecutiveFailures)
            } else {
                stored = Stored(last, startedMs: run.record.startedMs)
            }
        }
        if let stored, !settled.isEmpty {
            try? FileSystem.writeAtomically(JSON.encode(stored), to: lastRunPath)
        }
        return stored?.lastRun
    }

    private func readStored() -> Stored? {
        guard let bytes = try? FileSystem.read(lastRunPath, limit: 16 << 10) else { return nil }
        return try? JSON.decode(Stored.self, from: bytes)
    }

    /// The run as a release-health session.
    static func session(_ run: Settled) -> SentrySession {
        let status: SentrySession.Status =
            switch run.outcome {
            case .clean: .exited
            case .crashed: .crashed
            case .abnormal: .abnormal
            }
        let record = run.record
        return SentrySession(
            sid: UUIDBytes.random().description, started: Timestamp(milliseconds: record.startedMs),
            ended: Timestamp(milliseconds: run.endedMs), status: status,
            release: record.version.isEmpty ? nil : record.version,
            environment: record.environment.isEmpty ? nil : record.environment)
    }

    /// The abnormal-exit report of a run (schema version 3): no stack, no images, no
    /// breadcrumbs (the ring lived in the dead process's memory; docs/decisions.md).
    static func abnormalReport(_ run: Settled, exit: LastRun.AbnormalExit) -> CrashReport {
        let record = run.record
        let exitClass = CrashReport.ExitClass(rawValue: exit.rawValue) ?? .killed
        return CrashReport(
            schemaVersion: 3, kind: .abnormalExit, reportID: UUIDBytes.random().description,
            timestamp: Timestamp(milliseconds: run.endedMs).iso8601, timestampMs: run.endedMs,
            uptimeMs: run.endedMs - record.startedMs,
            app: .init(name: record.app, version: record.version, build: record.build, environment: record.environment),
            os: .init(
                name: String(cString: scr_report_os_field(0)), release: String(cString: scr_report_os_field(1)),
                machine: String(cString: scr_report_os_field(2)), distribution: String(cString: scr_report_os_field(3))),
            crash: nil, abnormalExit: .init(exitClass: exitClass, runStartedMs: record.startedMs), threads: [],
            threadsTotal: 0, images: [], breadcrumbs: .init(capacity: 0, torn: 0, items: []))
    }

    private func writeAbnormalReport(_ run: Settled, exit: LastRun.AbnormalExit, store: ReportStore) {
        let report = Self.abnormalReport(run, exit: exit)
        do {
            let bytes = try Gzip.compress(JSON.encode(report))
            try FileSystem.writeAtomically(bytes, to: store.pending + "/\(report.reportID).crash")
        } catch {
            Diagnostics.report("cannot keep the abnormal-exit report of an earlier run: \(error)", level: .warning)
        }
    }

    /// Deletes the records and the last outcome: crash reporting was opted out. A process that
    /// still runs marks its end in a file that is gone, which harms nothing.
    func forget() {
        _ = try? FileSystem.remove(directory, recursive: true)
    }

    // MARK: this run

    /// Writes this run's record and arms the C side's end marks. Returns the record, nil when it
    /// could not be written (the service goes on; the next launch then knows nothing of it).
    func recordThisRun(app: String, version: String, build: String, environment: String) -> RunRecord? {
        let pid = getpid()
        guard let ticks = ProcessFacts.startTicks(pid: pid), let boot = ProcessFacts.bootID() else { return nil }
        let oom = ProcessFacts.oomCounter()
        let record = RunRecord(
            pid: pid, startTicks: ticks, startedMs: Timestamp.now().milliseconds, bootID: boot,
            oomCounterPath: oom?.path, oomKills: oom?.kills, app: app, version: version, build: build,
            environment: environment)
        let path = directory + "/" + record.fileName
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let text = Array(record.text.utf8)
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == text.count, scr_run_record_arm(fd) == 0 else {
            close(fd)
            unlink(path)
            return nil
        }
        return record
    }
}
