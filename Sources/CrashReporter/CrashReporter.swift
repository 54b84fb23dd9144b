import CCrashReporter
import CrashReportDelivery
import CrashReporterSupport
import Glibc
import Synchronization
import Tracking

/// The crash reporter of a Linux Swift service: call `start` once, first thing in `main`.
///
/// ```swift
/// import CrashReporter
/// try CrashReporter.start(Options(appName: "orders", appVersion: "1.4.2"))
/// ```
///
/// From then on a crash by SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP or SIGFPE leaves a
/// gzip-compressed report with every thread in `<state>/pending/<id>.crash`
/// (docs/report-schema.md), and the process still dies of the same signal. A snapshot
/// (`kill -QUIT`, `snapshot(reason:)`) or a late heartbeat leaves the same kind of report while
/// the service goes on.
public enum CrashReporter {
    /// What `start` did.
    public enum Status: Sendable, Equatable {
        /// Handlers are installed; reports go to `stateDirectory/pending`.
        case capturing(stateDirectory: String)
        /// The user or the operator opted out: nothing was installed and pending reports were deleted.
        case optedOut(stateDirectory: String)
    }

    /// What `start` did, nil before. One lock for all of it: each generic `Lock` costs `start` the
    /// first use of its type's metadata (docs/benchmarks.md, "start()").
    private static let state = Lock<Started?>(nil)
    private static let previousRun = Lock<LastRun?>(nil)
    /// Whether start's background work (settling earlier runs, retention) was begun; `settledLatch`
    /// opens once it is done. A flag and a latch made on first use, so that `start` makes neither.
    private static let settling = Atomic<Bool>(false)
    private static let settledLatch = Latch()
    /// How long `lastRun`, `waitForDelivery` and `startDelivery` wait for that work at most.
    static let settleTimeout = 2.0
    private static let worker = Lock<Delivery?>(nil)

    private struct Started {
        var status: Status
        /// What delivery needs, kept by `start` for `startDelivery()`; nil when opted out.
        var configuration: ResolvedConfiguration?
    }

    /// What this launch's delivery is doing; nil without a transport, or before it began.
    private enum Delivery {
        /// The pending folder was empty when delivery began: no worker was started.
        case nothingPending
        case running(DeliveryWorker)
    }

    /// The status of the last `start`, nil before.
    public static var status: Status? { state.withLock { $0?.status } }

    /// How the previous run of this service (in this state directory) ended, as `start` found
    /// it: clean, crashed (with its report's id) or abnormal (killed, out of memory, machine
    /// restart), and how many runs in a row failed. Nil before `start`, on the first run ever,
    /// when crash reporting is opted out, and with `Options.recordRuns` off (docs/runs.md).
    /// `start` settles the earlier runs on a background thread: the first read waits for it
    /// (about a millisecond, two seconds at most), so the answer is right as soon as `start` returns.
    public static var lastRun: LastRun? {
        awaitSettled(timeout: settleTimeout)
        return previousRun.withLock { $0 }
    }

    /// Waits until start's background work is done (at most `timeout` seconds); at once before start.
    private static func awaitSettled(timeout: Double) {
        guard settling.load(ordering: .acquiring) else { return }
        settledLatch.wait(timeout: timeout)
    }

    /// Arms the crash handlers. Fast (no report is read or sent here) and safe to call before
    /// anything else. `environment` fills in what `options` leaves out (docs/configuration.md);
    /// nil reads the process's. Throws `CrashReporterError` when an option or variable is
    /// invalid, the state directory cannot be made while `Options.crashOutput` is not `.report`
    /// (with `.report` a crash then goes to standard error only), or the handlers cannot be
    /// installed; the service can go on without crash reports then.
    @discardableResult
    public static func start(
        _ options: Options = Options(),
        environment: [String: String]? = nil
    ) throws -> Status {
        let environment = environment ?? ProcessEnvironment.current()
        let config = try ResolvedConfiguration(options: options, environment: environment)
        // What start has to say is said once the lock is released: a diagnostic handler may call back.
        // Appended only when there is something to say: the common start builds no array.
        var notes: [Note] = []
        defer { for note in notes { Diagnostics.report(note.message, level: note.level) } }
        let status = try state.withLock { current in
            if current != nil { throw CrashReporterError.alreadyStarted }
            let store = ReportStore(stateDirectory: config.stateDirectory)
            guard CrashReportingConsent.isEnabled(stateDirectory: config.stateDirectory, environment: environment)
            else {
                store.deletePending()
                RunLedger(stateDirectory: config.stateDirectory).forget()
                notes.append(("crash reporting is opted out: no handler installed, pending reports deleted", .info))
                let status = Status.optedOut(stateDirectory: config.stateDirectory)
                current = Started(status: status, configuration: nil)
                return status
            }
            // A read-only root or a full disk: the handlers are armed all the same, and a crash goes
            // to standard error, which the container's log keeps (docs/deployment.md).
            let stateUsable: Bool
            do throws(FileError) {
                try FileSystem.createDirectory(config.pendingDirectory)
                try FileSystem.checkWritable(config.pendingDirectory)
                stateUsable = true
            } catch {
                let failure = CrashReporterError(error)
                guard config.crashOutput == .report else {
                    notes.append(("crash reports cannot be kept: \(failure)", .error))
                    throw failure
                }
                notes.append(
                    ("crash reports cannot be kept on disk (\(failure)): a crash goes to standard error only", .error))
                stateUsable = false
            }
            try install(config)
            if config.crashOutput == .report, scr_stderr_copy_has_report() == 0 {
                notes.append(
                    (
                        "no memory file for the crash's copy on standard error: a crash writes its summary line only",
                        .warning
                    ))
            }
            if config.recordRuns && stateUsable { scr_run_record_expect() }
            if config.watchExecutors { ExecutorWatch.hookPool() }
            if stateUsable { settling.store(true, ordering: .releasing) }
            if let note = chainedHandlerNote() { notes.append(note) }
            TestFault.arm(EnvironmentSettings(environment).raw(.testFault))
            TrackingSystem.setBreadcrumbSink(breadcrumbSink)
            scr_set_report_written_callback { CrashReporter.deliverWrittenReport() }
            if let note = snapshotSignalNote(config.snapshotSignal) { notes.append(note) }
            if case .otlp(let otlp) = config.delivery.destination, !otlp.droppedResourceKeys.isEmpty {
                notes.append(
                    (
                        "OpenTelemetry resource attributes never sent with crash reports (they could name a machine "
                            + "or a person): \(otlp.droppedResourceKeys.joined(separator: ", "))", .info
                    ))
            }
            let status = Status.capturing(stateDirectory: config.stateDirectory)
            current = Started(status: status, configuration: config)
            return status
        }
        if case .capturing = status, settling.load(ordering: .acquiring) {
            settleInBackground(config, deliver: options.deliverAtStart)
        }
        return status
    }

    /// What the armed handlers do not need, on a thread of its own so that `start` returns
    /// sooner: the executor watch's first jobs (the concurrency runtime's first tasks), the runs
    /// of earlier processes settled and this one's record armed, the reports
    /// earlier processes left incomplete set aside and their stale temporary files removed (both
    /// only older than a minute, so never this process's own), and retention without a
    /// destination; a crash or a clean end meanwhile waits for these (scr_run_record_expect).
    /// Then delivery. Inline when the thread cannot start.
    private static func settleInBackground(_ config: ResolvedConfiguration, deliver: Bool) {
        let work: @Sendable () -> Void = {
            if config.watchExecutors { ExecutorWatch.start() }
            if config.recordRuns { recordRun(config) }
            let store = ReportStore(stateDirectory: config.stateDirectory)
            store.setAsideIncomplete()
            store.deleteStaleTemporaryFiles()
            // With a destination the delivery passes keep the bounds; without one, start does,
            // before a crash may go on (a service that crashes at once, launch after launch,
            // still keeps pending/ at its bound).
            if config.delivery.destination == nil { Retention.applyLocked(to: store, limits: config.delivery.limits) }
            scr_run_record_settled()  // an exit from now on need not wait
            // What a crash would do first, done ahead (zlib readied, the report's file made).
            scr_ready_crash_path()
            // Delivery begins before the latch opens: whoever waited for it (waitForDelivery) then
            // finds the worker.
            if deliver { startDelivery(forNewReport: false) }
            settledLatch.open()
        }
        do throws(SystemCallError) {
            try DetachedThread.start(name: "crash-settle", stackSize: 512 << 10, work)
        } catch {
            work()
        }
    }

    /// Begins delivering pending reports in the background, when a transport is configured
    /// and `start` captured: what `start` does unless `Options.deliverAtStart` is false. Does
    /// nothing while a worker is at it, and nothing when none is pending. Without a transport
    /// the reports stay on the machine for `crashreport`. Should the worker's thread not start
    /// (no memory, a thread limit), they stay for the next launch.
    public static func startDelivery() {
        awaitSettled(timeout: settleTimeout)  // the reports and sessions of earlier runs are written first
        startDelivery(forNewReport: false)
    }

    /// A snapshot or hang report was just written by the running service (on the monitor
    /// thread): the worker running looks again, or a new one starts.
    static func deliverWrittenReport() {
        if let config = state.withLock({ $0?.configuration }) {
            Retention.keepPendingBound(
                of: ReportStore(stateDirectory: config.stateDirectory), limits: config.delivery.limits)
        }
        startDelivery(forNewReport: true)
    }

    private static func startDelivery(forNewReport: Bool) {
        guard let config = state.withLock({ $0?.configuration }) else { return }
        guard let transport = TransportChoice.make(config) else { return }
        let failure = worker.withLock { current -> SystemCallError? in
            if case .running(let running) = current, forNewReport ? running.deliverNew() : !running.isFinished {
                return nil
            }
            do throws(SystemCallError) {
                current = try makeWorker(config, transport: transport)
                return nil
            } catch {
                current = nil
                return error
            }
        }
        if let failure {
            Diagnostics.report(
                "cannot start the delivery thread (\(failure)); reports stay for the next launch", level: .warning)
        }
    }

    /// Asks the background delivery to stop after the report it is sending (a request in
    /// flight ends by the upload timeout at the latest) and waits at most `timeout` for
    /// it. Reports not sent stay pending for the next launch. True when no worker is running
    /// any more. `CrashReporterService` calls it on a graceful shutdown.
    @discardableResult
    public static func stopDelivery(timeout: Duration = .seconds(5)) -> Bool {
        guard case .running(let running) = worker.withLock({ $0 }) else { return true }
        return running.stop(timeout: timeout.inSeconds)
    }

    /// The worker for this launch's pending reports, started; `.nothingPending` when there are none.
    private static func makeWorker(
        _ config: ResolvedConfiguration, transport: any ReportTransport
    ) throws(SystemCallError) -> Delivery {
        let stateDirectory = config.stateDirectory
        let store = ReportStore(stateDirectory: stateDirectory, keepDelivered: config.keepDelivered)
        // Nothing pending, nothing to do this launch: no thread is started, which keeps `start`
        // short in the common case. A crash of this process is delivered at the next launch.
        guard
            store.hasPendingReports || store.hasPendingSessions
                || DeliveryCaps.hasSummaryWaiting(stateDirectory: stateDirectory)
        else { return .nothingPending }
        let pipeline = config.delivery.pipeline(
            store: store, transport: transport,
            symbolicate: WorkerSymbolicator.make(environment: config.delivery.environment))
        let delivery = DeliveryWorker(pipeline: pipeline)
        try delivery.start()
        return .running(delivery)
    }

    /// Settles the runs of earlier processes (docs/runs.md) and records this one.
    private static func recordRun(_ config: ResolvedConfiguration) {
        let ledger = RunLedger(stateDirectory: config.stateDirectory)
        let last = ledger.settle(sessions: { TransportChoice.make(config) != nil }) { bootID in
            RunLedger.thisRun(
                bootID: bootID, app: config.appName, version: config.appVersion, build: config.appBuild,
                environment: config.environmentName)
        }
        previousRun.withLock { $0 = last }
    }

    /// What `start` has to say, said once its lock is released.
    private typealias Note = (message: String, level: Diagnostics.Level)

    /// Whether the snapshot signal asked for is in place, as a note when it is not.
    private static func snapshotSignalNote(_ wanted: SnapshotSignal) -> Note? {
        guard let number = wanted.number, scr_snapshot_signal() != number else { return nil }
        return (
            "SIG\(wanted.rawValue) already has a handler or is ignored: left alone, so it does not write snapshots",
            .info
        )
    }

    /// Which handled signals already had a handler (it still runs, after the report), as a note.
    private static func chainedHandlerNote() -> Note? {
        let mask = scr_chained_signal_mask()
        guard mask != 0 else { return nil }  // the common case, without building the list below
        let handled: [(number: Int32, name: String)] = [
            (SIGSEGV, "SIGSEGV"), (SIGBUS, "SIGBUS"), (SIGABRT, "SIGABRT"), (SIGILL, "SIGILL"), (SIGTRAP, "SIGTRAP"),
            (SIGFPE, "SIGFPE"),
        ]
        let names = handled.filter { mask & (1 << UInt64($0.number)) != 0 }.map(\.name)
        guard !names.isEmpty else { return nil }
        let list = names.joined(separator: ", ")
        return ("found a handler already installed for \(list); it runs after the crash report is written", .info)
    }

    /// Waits for the first delivery pass of this launch (at most `timeout` seconds) and says
    /// what it did: nil when no transport is configured or the pass did not finish in time.
    /// A service that exits right after its work (a command-line tool) calls this before
    /// exiting; a long-running service never needs to.
    @discardableResult
    public static func waitForDelivery(timeout: Duration = .seconds(10)) -> DeliveryResult? {
        let seconds = timeout.inSeconds
        awaitSettled(timeout: min(seconds, settleTimeout))  // delivery begins after the settle
        switch worker.withLock({ $0 }) {
        case nil: return nil
        case .nothingPending: return DeliveryResult(DeliverySummary())
        case .running(let delivery):
            guard case .summary(let summary) = delivery.waitForFirstPass(timeout: seconds) else { return nil }
            return DeliveryResult(summary)
        }
    }

    /// Stops capturing in this process (used when the user opts out while it runs).
    static func stopCapture() {
        scr_set_capture_enabled(0)
    }

    /// The crash reporter's ring as the tracking façade's breadcrumb sink. `start` plugs it into
    /// `TrackingSystem`; a service that bootstraps tracking in another order can plug it itself.
    public static let breadcrumbSink: any BreadcrumbSink = RingBreadcrumbSink()

    /// Bytes the handler reserved at start (ring, compression arena, buffers, image table, the
    /// other threads' slots, this thread's alternate stack).
    public static var reservedBytes: Int { Int(scr_reserved_bytes()) }

    private static func install(_ config: ResolvedConfiguration) throws {
        // The handler's paths and file-name endings come from the one owner of the state
        // directory's names; the C core spells none of its own.
        let layout = StateLayout(config.stateDirectory)
        let strings = [
            layout.pending, layout.root, StateLayout.Suffix.report, StateLayout.Suffix.temporaryReport,
            StateLayout.Suffix.failedReport, config.appName, config.appVersion, config.appBuild,
            config.environmentName, config.homeDirectory,
        ]
        guard scr_stderr_copy_configure(config.crashOutput.mode) == SCR_OK,
            scr_termination_log_configure(config.terminationLog ?? "") == SCR_OK
        else {
            throw CrashReporterError.invalidOption(
                "\(EnvironmentVariable.terminationLog.name) is too long: \(config.terminationLog ?? "")")
        }
        let result = withCStrings(strings) { s in
            var c = scr_config(
                pending_dir: s[0], state_dir: s[1], report_suffix: s[2], temporary_suffix: s[3], failed_suffix: s[4],
                app_name: s[5], app_version: s[6], app_build: s[7], app_environment: s[8], home_dir: s[9],
                breadcrumb_capacity: UInt32(config.breadcrumbCapacity),
                max_threads: UInt32(config.maxThreads),
                max_frames_per_thread: UInt32(config.maxFramesPerThread),
                thread_timeout_ms: UInt32(config.threadCaptureTimeout.inMilliseconds),
                snapshot_signal: config.snapshotSignal.number ?? 0,
                hang_timeout_ms: UInt32(config.hangTimeout.inMilliseconds))
            return scr_install(&c)
        }
        switch Int(result) {
        case Int(SCR_OK): return
        case Int(SCR_ERR_ALREADY_INSTALLED): throw CrashReporterError.alreadyStarted
        case Int(SCR_ERR_PATH_TOO_LONG): throw CrashReporterError.pathTooLong(path: config.pendingDirectory)
        case Int(SCR_ERR_NO_MEMORY): throw CrashReporterError.outOfMemory
        case Int(SCR_ERR_SIGACTION): throw CrashReporterError.cannotInstallHandlers(errno: errno)
        default: throw CrashReporterError.invalidOption("rejected by the handler (code \(result))")
        }
    }

    /// Runs `body` with NUL-terminated copies of `strings`, in order, in one buffer that lives
    /// for the call only (what `scr_install` needs: it copies every string it is given).
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>]) -> R) -> R {
        var bytes: [CChar] = []
        var offsets: [Int] = []
        for string in strings {
            offsets.append(bytes.count)
            bytes += string.utf8CString
        }
        return bytes.withUnsafeBufferPointer { buffer in
            body(offsets.map { buffer.baseAddress! + $0 })
        }
    }
}
