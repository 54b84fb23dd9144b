import CCrashReporter
import CrashReporterSupport
import Glibc

/// How the crash reporter is set up. Every field has a default; environment variables fill
/// in what the code leaves out (see `docs/configuration.md`).
public struct Options: Sendable {
    /// The service's name: names the state directory and goes into every report.
    /// Defaults to the executable's file name.
    public var appName: String?
    /// The service's version, e.g. `1.4.2` (`CRASH_REPORTER_APP_VERSION`, `SENTRY_RELEASE`).
    public var appVersion: String?
    /// A build number or commit.
    public var appBuild: String?
    /// `production`, `staging`, … (`SENTRY_ENVIRONMENT`); defaults to `production`.
    public var environment: String?
    /// Where pending reports and the stored choices live. When nil: `CRASH_REPORTER_DIR`,
    /// else `$STATE_DIRECTORY`, `$XDG_STATE_HOME` or `~/.local/state` with the app's name below.
    public var stateDirectory: String?
    /// How many breadcrumbs the ring keeps (the newest ones). 0 turns breadcrumbs off.
    public var breadcrumbCapacity: Int
    /// Sentry DSN (`SENTRY_DSN`): reports go to its envelope endpoint.
    public var sentryDSN: String?
    /// A plain HTTP endpoint (`CRASH_REPORTER_URL`), e.g. the collector's `/api/reports`.
    public var uploadURL: String?
    /// OpenTelemetry export (OTLP/HTTP logs, docs/opentelemetry.md); nil reads
    /// `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`. A DSN or an upload
    /// URL wins over it.
    public var otlp: OTLPOptions?
    /// First retry delay, doubled per attempt (`CRASH_REPORTER_RETRY_BASE_SECONDS`, 30 s when nil).
    public var retryBaseDelay: Duration?
    /// Delivered reports kept in `<state>/delivered` for local review.
    public var keepDelivered: Int
    /// Whether `start` begins delivering pending reports in the background at once. A service
    /// that runs `CrashReporterService` (swift-service-lifecycle) can leave it to the service
    /// group instead; `CrashReporter.startDelivery()` begins it at any time.
    public var deliverAtStart: Bool
    /// How many other threads a report shows at most (1 to 4096); the rest are counted.
    public var maxThreads: Int
    /// How many frames of each other thread a report keeps (1 to 256): the innermost ones and,
    /// of a deeper stack, the outermost quarter, with a count of the ones left out.
    public var maxFramesPerThread: Int
    /// How long a capture waits for the other threads to answer (1 ms to 10 s); the report names
    /// the ones that did not.
    public var threadCaptureTimeout: Duration
    /// The signal that asks the running service for a snapshot (`CRASH_REPORTER_SNAPSHOT_SIGNAL`:
    /// `QUIT`, `USR1`, `USR2` or `off`); SIGQUIT when nil. A signal the service handles or
    /// ignores itself is left alone.
    public var snapshotSignal: SnapshotSignal?
    /// How late a heartbeat may be before the watchdog writes a hang report (100 ms to 1 h;
    /// `CRASH_REPORTER_HANG_TIMEOUT_SECONDS`); 10 s when nil.
    public var hangTimeout: Duration?
    /// Full reports of one signature sent per window (`CRASH_REPORTER_CAP_COUNT`, 5 when nil;
    /// 0: no cap). The rest of a crash loop is counted in one summary per window
    /// (docs/crash-loops.md).
    public var capCount: Int?
    /// The cap's window (`CRASH_REPORTER_CAP_WINDOW_SECONDS`, 1 h when nil).
    public var capWindow: Duration?
    /// Unsent reports kept, in `pending/` and in `withheld/` each (`CRASH_REPORTER_MAX_PENDING_REPORTS`,
    /// 100 when nil; 0: no bound); the oldest go first, counted.
    public var maxPendingReports: Int?
    /// Their bytes, in each folder (`CRASH_REPORTER_MAX_PENDING_BYTES`, 50 MiB when nil; 0: no bound).
    public var maxPendingBytes: Int?
    /// How long `delivered/`, `rejected/` and `withheld/` keep a report (`CRASH_REPORTER_KEEP_DAYS`,
    /// 30 days when nil; zero: no bound).
    public var retention: Duration?
    /// Whether `start` records the run, so that the next launch knows how it ended
    /// (`CrashReporter.lastRun`, abnormal-exit reports, sessions; docs/runs.md). On by default;
    /// `CRASH_REPORTER_RUN_RECORDS=0` turns it off too.
    public var recordRuns: Bool
    /// Whether the reporter watches the concurrency pool and the main actor itself: a tiny job on
    /// each ticks a heartbeat (`cooperative pool`, `main actor`), and one that stops for
    /// `hangTimeout` writes one hang report naming it, with every thread. The main actor's watch
    /// starts only once the main actor has run it (a synchronous `main` that never drains the main
    /// queue is never watched). On by default; `CRASH_REPORTER_WATCH_EXECUTORS=0` turns it off too.
    public var watchExecutors: Bool
    /// What a crash writes to standard error (`CRASH_REPORTER_STDERR`): the summary line and the
    /// compressed report as lines `crashreport import` rebuilds it from (`.report`, the default
    /// when nil), the summary line only, or nothing (docs/deployment.md).
    public var crashOutput: CrashOutput?

    /// Options with each field given, every one optional: what is nil is read from the environment
    /// at `start` (docs/configuration.md), else takes its default.
    public init(
        appName: String? = nil,
        appVersion: String? = nil,
        appBuild: String? = nil,
        environment: String? = nil,
        stateDirectory: String? = nil,
        breadcrumbCapacity: Int = ConfigurationDefaults.breadcrumbCapacity,
        sentryDSN: String? = nil,
        uploadURL: String? = nil,
        otlp: OTLPOptions? = nil,
        retryBaseDelay: Duration? = nil,
        keepDelivered: Int = ConfigurationDefaults.keepDelivered,
        deliverAtStart: Bool = true,
        maxThreads: Int = ConfigurationDefaults.maxThreads,
        maxFramesPerThread: Int = ConfigurationDefaults.maxFramesPerThread,
        threadCaptureTimeout: Duration = ConfigurationDefaults.threadCaptureTimeout,
        snapshotSignal: SnapshotSignal? = nil,
        hangTimeout: Duration? = nil,
        capCount: Int? = nil,
        capWindow: Duration? = nil,
        maxPendingReports: Int? = nil,
        maxPendingBytes: Int? = nil,
        retention: Duration? = nil,
        recordRuns: Bool = true,
        watchExecutors: Bool = true,
        crashOutput: CrashOutput? = nil
    ) {
        self.appName = appName
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.environment = environment
        self.stateDirectory = stateDirectory
        self.breadcrumbCapacity = breadcrumbCapacity
        self.sentryDSN = sentryDSN
        self.uploadURL = uploadURL
        self.otlp = otlp
        self.retryBaseDelay = retryBaseDelay
        self.keepDelivered = keepDelivered
        self.deliverAtStart = deliverAtStart
        self.maxThreads = maxThreads
        self.maxFramesPerThread = maxFramesPerThread
        self.threadCaptureTimeout = threadCaptureTimeout
        self.snapshotSignal = snapshotSignal
        self.hangTimeout = hangTimeout
        self.capCount = capCount
        self.capWindow = capWindow
        self.maxPendingReports = maxPendingReports
        self.maxPendingBytes = maxPendingBytes
        self.retention = retention
        self.recordRuns = recordRuns
        self.watchExecutors = watchExecutors
        self.crashOutput = crashOutput
    }
}

/// The signal that asks a running service for a snapshot (`kill -QUIT <pid>`, as the JVM's
/// thread dump).
public enum SnapshotSignal: String, Sendable, CaseIterable {
    /// `SIGQUIT` (the default): `kill -QUIT <pid>`.
    case quit = "QUIT"
    /// `SIGUSR1`: `kill -USR1 <pid>`.
    case user1 = "USR1"
    /// `SIGUSR2`: `kill -USR2 <pid>`.
    case user2 = "USR2"
    /// No signal: snapshots come from `CrashReporter.snapshot(reason:)` and the watchdog only.
    case off

    /// The signal's number, nil for `off`.
    var number: Int32? {
        switch self {
        case .quit: SIGQUIT
        case .user1: SIGUSR1
        case .user2: SIGUSR2
        case .off: nil
        }
    }
}

/// What a crash writes to standard error, where a container's log keeps it after the container
/// and its filesystem are gone (docs/deployment.md).
public enum CrashOutput: String, Sendable, CaseIterable {
    /// One human summary line (the signal or fatal error, where, the report id), then the
    /// compressed report as marked lines that `crashreport import` rebuilds it from.
    case report
    /// The summary line only.
    case summary
    /// Nothing.
    case off

    /// The C core's value (SCR_STDERR_*).
    var mode: Int32 {
        switch self {
        case .report: Int32(SCR_STDERR_REPORT)
        case .summary: Int32(SCR_STDERR_SUMMARY)
        case .off: Int32(SCR_STDERR_OFF)
        }
    }
}
