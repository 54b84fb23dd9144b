import CCrashReporter
import CrashReportDelivery
import CrashReportFormat
import CrashReporterSupport
import Glibc
import Tracking

/// The run records of one state directory (`<state>/runs/`, docs/runs.md). At start, under a
/// short lock, the runs of earlier processes that have ended are settled (an abnormal-exit
/// report for each that neither exited nor crashed, a session for each when a transport is
/// configured, the last outcome kept in `runs/last-run`), then this run's record is written
/// into a free slot and handed to the C side, which marks its end.
///
/// Records live in slots, `runs/slot-<n>.run`, that are reused: a settled record gets the state
/// `settled` and the next process writes its own record over it. So the common launch (one
/// earlier run that ended) creates, renames and deletes no file: a few reads and two in-place
/// writes, which keeps `start` fast on file systems where metadata changes are slow.
struct RunLedger {
    let stateDirectory: String
    var layout: StateLayout { StateLayout(stateDirectory) }
    var directory: String { layout.runs }
    var lastRunPath: String { layout.lastRun }

    /// The state line of a record whose run was settled: its slot is free.
    static let settledLine = "settled " + String(repeating: "-", count: 36) + "\n"

    /// What `runs/last-run` keeps: the latest settled run and the failures in a row, as
    /// `key value` lines (`outcome crashed`, `report_id …`, `class …`, `started_ms …`,
    /// `consecutive_failures …`).
    struct Stored: Equatable {
        var lastRun: LastRun
        var startedMs: Int64

        var text: String {
            var lines: [String]
            switch lastRun.outcome {
            case .clean: lines = ["outcome clean"]
            case .crashed(let id): lines = ["outcome crashed", "report_id \(id ?? "-")"]
            case .abnormal(let exit): lines = ["outcome abnormal", "class \(exit.rawValue)"]
            }
            lines += ["started_ms \(startedMs)", "consecutive_failures \(lastRun.consecutiveFailures)"]
            return lines.joined(separator: "\n") + "\n"
        }

        init(lastRun: LastRun, startedMs: Int64) {
            self.lastRun = lastRun
            self.startedMs = startedMs
        }

        init?(parsing text: String) {
            let values = KeyValueLines(text)
            guard let started = values["started_ms"].flatMap({ Int64($0) }),
                let failures = values["consecutive_failures"].flatMap({ Int($0) }), failures >= 0
            else { return nil }
            let outcome: LastRun.Outcome
            switch values["outcome"] {
            case "clean": outcome = .clean
            case "crashed":
                let id = values["report_id"]
                outcome = .crashed(reportID: id == nil || id == "-" ? nil : id)
            case "abnormal":
                guard let exit = values["class"].flatMap(LastRun.AbnormalExit.init(rawValue:)) else { return nil }
                outcome = .abnormal(exit)
            default: return nil
            }
            self.init(lastRun: LastRun(outcome: outcome, consecutiveFailures: failures), startedMs: started)
        }
    }

    /// A run found ended at this launch.
    struct Settled {
        var record: RunRecord
        var outcome: LastRun.Outcome
        /// When it ended, as far as this launch can tell (an upper bound).
        var endedMs: Int64
    }

    /// A record file read at start.
    private struct Slot {
        var path: String
        /// Nil for a free slot (settled, or damaged and old).
        var record: RunRecord?
        /// Settled by this launch: marked so on disk unless this run takes the slot.
        var settledNow = false
    }

    // MARK: settling the runs of earlier processes, recording this one

    /// Settles every ended run and records this one, under a short lock (siblings starting at
    /// once settle each run once and never take the same slot). Returns how the latest ended
    /// run went, nil when no run of this directory has ended yet. `sessions` says whether to
    /// keep a session per run for the transport (asked only when a run has ended); `thisRun`
    /// makes this process's record (nil: record nothing, as the tests of settling do).
    func settle(
        sessions: () -> Bool, now: Timestamp = .now(), recording thisRun: ((_ bootID: String) -> RunRecord?)? = nil
    ) -> LastRun? {
        // The directory is made only when the lock file cannot be opened (the first run).
        guard
            let lock = DirectoryLock(path: layout.settleLock, wait: true)
                ?? ((try? FileSystem.createDirectory(directory)) != nil
                    ? DirectoryLock(path: layout.settleLock, wait: true) : nil)
        else { return nil }
        defer { withExtendedLifetime(lock) {} }
        var stored = Self.read(lastRunPath).flatMap(Stored.init(parsing:))
        let bootID = ProcessFacts.bootID()
        var slots = readSlots(now: now)
        var settled: [Settled] = []
        for index in slots.indices {
            guard let record = slots[index].record else { continue }
            var current = RunClassifier.Facts(
                bootID: bootID, startTicksOfPID: ProcessFacts.startTicks(pid: record.pid), oomKillsNow: nil)
            // The cgroup's counter matters only for a run that did not say how it ended.
            if record.state == .running {
                current.oomKillsNow = record.oomCounterPath.flatMap(ProcessFacts.oomKills(at:))
            }
            guard let outcome = RunClassifier.outcome(of: record, facts: current) else { continue }
            var ended = now.milliseconds
            if case .abnormal(.machineRestart) = outcome, let boot = ProcessFacts.bootTimeMs() {
                ended = min(ended, boot)
            }
            settled.append(Settled(record: record, outcome: outcome, endedMs: max(ended, record.startedMs)))
            slots[index].record = nil
            slots[index].settledNow = true
        }
        // This run takes the first free slot (one just settled, usually); the others settled now
        // are marked so.
        let mine = thisRun == nil ? nil : slots.firstIndex { $0.record == nil }
        for index in slots.indices where slots[index].settledNow && index != mine {
            Self.overwrite(slots[index].path, with: Self.settledLine, truncate: false)
        }
        if !settled.isEmpty {
            let store = ReportStore(stateDirectory: stateDirectory)
            let keepSessions = sessions()
            for run in settled.sorted(by: { $0.record.startedMs < $1.record.startedMs }) {
                if case .abnormal(let exit) = run.outcome { writeAbnormalReport(run, exit: exit, store: store) }
                if keepSessions { try? store.keepSession(of: Self.endedRun(run)) }
                let failures = RunClassifier.consecutiveFailures(
                    after: run.outcome, previous: stored?.lastRun.consecutiveFailures ?? 0)
                if let kept = stored, kept.startedMs > run.record.startedMs {
                    // A sibling's run that started before the one kept counts, but is not "last".
                    stored?.lastRun.consecutiveFailures = failures
                } else {
                    stored = Stored(
                        lastRun: LastRun(outcome: run.outcome, consecutiveFailures: failures),
                        startedMs: run.record.startedMs)
                }
            }
            if let stored { Self.overwrite(lastRunPath, with: stored.text, truncate: true) }
        }
        if let thisRun {
            let path = mine.map { slots[$0].path } ?? layout.runSlot(slots.count)
            if let bootID, let record = thisRun(bootID) {
                _ = Self.arm(record, at: path)
            } else if let mine, slots[mine].settledNow {
                Self.overwrite(path, with: Self.settledLine, truncate: false)
            }
        }
        return stored?.lastRun
    }

    /// The record files, with their records; a settled slot, or a damaged one older than a
    /// minute (a start killed while writing it), is free.
    private func readSlots(now: Timestamp) -> [Slot] {
        let names = ((try? FileSystem.contentsOfDirectory(directory)) ?? []).filter {
            $0.hasSuffix(StateLayout.Suffix.runRecord)
        }.sorted()
        return names.compactMap { name -> Slot? in
            let path = directory + "/" + name
            guard let text = Self.read(path) else { return nil }
            if text.hasPrefix(Self.settledLine) { return Slot(path: path, record: nil) }
            if let record = RunRecord(parsing: text) { return Slot(path: path, record: record) }
            let old = FileSystem.modificationTime(path).map { now.seconds - $0 > 60 } ?? true
            return old ? Slot(path: path, record: nil) : nil
        }
    }

    private static func read(_ path: String) -> String? {
        FileSystem.readSmall(path, limit: 8 << 10).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes `text` at the start of an existing file (creating it when missing) without a
    /// rename: the file keeps its blocks, and a reader that finds it torn by a crash in the
    /// middle of this write takes it for damaged.
    private static func overwrite(_ path: String, with text: String, truncate: Bool) {
        guard let fd = try? SystemCall.run("open", { open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600) }) else {
            return
        }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = try? SystemCall.run("pwrite") {
            bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        if truncate, written == bytes.count {
            _ = try? SystemCall.run("ftruncate") { ftruncate(fd, off_t(bytes.count)) }
        }
    }

    /// Deletes the records and the last outcome: crash reporting was opted out. A process that
    /// still runs marks its end in a file that is gone, which harms nothing.
    func forget() {
        _ = try? FileSystem.remove(directory, recursive: true)
    }

    /// The run as the delivery side takes it, to keep as a release-health session: no
    /// server's format here.
    static func endedRun(_ run: Settled) -> EndedRun {
        let ending: EndedRun.Ending =
            switch run.outcome {
            case .clean: .exited
            case .crashed: .crashed
            case .abnormal: .abnormal
            }
        let record = run.record
        return EndedRun(
            started: Timestamp(milliseconds: record.startedMs), ended: Timestamp(milliseconds: run.endedMs),
            ending: ending, release: record.version.isEmpty ? nil : record.version,
            environment: record.environment.isEmpty ? nil : record.environment)
    }

    /// The abnormal-exit report of a run (schema version 3): no stack, no images, no
    /// breadcrumbs (the ring lived in the dead process's memory;
    /// docs/decisions/0057-no-breadcrumbs-in-an-abnormal-exit-report.md).
    static func abnormalReport(_ run: Settled, exit: LastRun.AbnormalExit) -> CrashReport {
        let record = run.record
        return CrashReport(
            schemaVersion: 3, kind: .abnormalExit, reportID: UUIDBytes.random().description,
            timestamp: Timestamp(milliseconds: run.endedMs).iso8601, timestampMs: run.endedMs,
            uptimeMs: run.endedMs - record.startedMs,
            app: .init(name: record.app, version: record.version, build: record.build, environment: record.environment),
            os: .init(
                name: String(cString: scr_report_os_field(0)), release: String(cString: scr_report_os_field(1)),
                machine: String(cString: scr_report_os_field(2)), distribution: String(cString: scr_report_os_field(3))),
            crash: nil, abnormalExit: .init(exitClass: exit, runStartedMs: record.startedMs), threads: [],
            threadsTotal: 0, images: [], breadcrumbs: .init(capacity: 0, torn: 0, items: []))
    }

    private func writeAbnormalReport(_ run: Settled, exit: LastRun.AbnormalExit, store: ReportStore) {
        let report = Self.abnormalReport(run, exit: exit)
        do {
            let bytes = try Gzip.compress(JSON.encode(report))
            try store.pendingFolder.add(bytes, id: report.reportID)
        } catch {
            Diagnostics.report("cannot keep the abnormal-exit report of an earlier run: \(error)", level: .warning)
        }
    }

    // MARK: this run

    /// This process's record, as of now; nil when `/proc` cannot say what the record needs.
    static func thisRun(bootID: String, app: String, version: String, build: String, environment: String)
        -> RunRecord?
    {
        let pid = getpid()
        // As the handler's install read it, else read now (a test records without install).
        let installed = scr_process_start_ticks()
        guard let ticks = installed != 0 ? installed : ProcessFacts.startTicks(pid: pid) else { return nil }
        let oom = ProcessFacts.oomCounter()
        return RunRecord(
            pid: pid, startTicks: ticks, startedMs: Timestamp.now().milliseconds, bootID: bootID,
            oomCounterPath: oom?.path, oomKills: oom?.kills, app: app, version: version, build: build,
            environment: environment)
    }

    /// Writes the record into the slot at `path` and arms the C side's end marks with its
    /// descriptor, which stays open. False when it could not (the service goes on; the next
    /// launch then knows nothing of this run).
    private static func arm(_ record: RunRecord, at path: String) -> Bool {
        guard let fd = try? SystemCall.run("open", { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }) else {
            return false
        }
        let text = Array(record.text.utf8)
        let written = try? SystemCall.run("pwrite") { text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
        guard written == text.count,
            (try? SystemCall.run("ftruncate") { ftruncate(fd, off_t(text.count)) }) != nil,
            scr_run_record_arm(fd) == 0
        else {
            // Nobody would mark this run's end: leave the slot free rather than a run that seems killed.
            let free = Array(settledLine.utf8)
            _ = try? SystemCall.run("pwrite") { free.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
            close(fd)
            return false
        }
        return true
    }
}
