import CCrashReporter
import CrashReportDelivery
import CrashReporterSupport
import Glibc
import Tracking

/// The crash reporter of a Linux Swift service. Call `start` once, first thing in `main`:
///
/// ```swift
/// import CrashReporter
/// try CrashReporter.start(Options(appName: "orders", appVersion: "1.4.2"))
/// ```
///
/// From then on a crash by SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP or SIGFPE leaves a
/// gzip-compressed report in `<state>/pending/<id>.crash` (docs/report-schema.md), and the
/// process still dies of the same signal.
public enum CrashReporter {
    /// What `start` did.
    public enum Status: Sendable, Equatable {
        /// Handlers are installed; reports go to `stateDirectory/pending`.
        case capturing(stateDirectory: String)
        /// The user or the operator opted out: nothing was installed and pending reports were deleted.
        case optedOut(stateDirectory: String)
    }

    private static let state = Lock<Status?>(nil)
    private static let worker = Lock<Delivery?>(nil)

    /// What this launch's delivery is doing; nil without a transport.
    private enum Delivery {
        /// The pending folder was empty at start: no worker was started.
        case nothingPending
        case running(DeliveryWorker)
    }

    /// The status of the last `start`, nil before.
    public static var status: Status? { state.withLock { $0 } }

    /// Arms the crash handlers. Fast (no report is read or sent here) and safe to call before
    /// anything else. `environment` fills in what `options` leaves out (docs/configuration.md);
    /// nil reads the process's. Throws `CrashReporterError` when an option or variable is
    /// invalid, the state directory cannot be made or the handlers cannot be installed; the
    /// service can go on without crash reports then.
    @discardableResult
    public static func start(
        _ options: Options = Options(),
        environment: [String: String]? = nil
    ) throws -> Status {
        let environment = environment ?? ProcessEnvironment.current()
        let config = try ResolvedConfiguration(options: options, environment: environment)
        return try state.withLock { current in
            if current != nil { throw CrashReporterError.alreadyStarted }
            let store = ReportStore(stateDirectory: config.stateDirectory)
            guard CrashReportingConsent.isEnabled(stateDirectory: config.stateDirectory, environment: environment)
            else {
                store.deletePending()
                let status = Status.optedOut(stateDirectory: config.stateDirectory)
                current = status
                return status
            }
            do throws(FileError) {
                try FileSystem.createDirectory(config.pendingDirectory)
                try FileSystem.checkWritable(config.pendingDirectory)
            } catch {
                throw CrashReporterError(error)
            }
            store.deleteStaleTemporaryFiles()
            try install(config)
            switch environment["CRASH_REPORTER_TEST_FAULT"] {
            case "unwind": scr_debug_inject_fault(1)
            case "report": scr_debug_inject_fault(2)
            default: break
            }
            TrackingSystem.setBreadcrumbSink(breadcrumbSink)
            let status = Status.capturing(stateDirectory: config.stateDirectory)
            current = status
            startDelivery(config)
            return status
        }
    }

    /// Starts the background delivery of pending reports, when a transport is configured.
    /// Without one the reports stay on the machine for `crashreport`. Should the worker's
    /// thread not start (no memory, a thread limit), they stay for the next launch.
    private static func startDelivery(_ config: ResolvedConfiguration) {
        guard let transport = Transports.make(config) else { return }
        let stateDirectory = config.stateDirectory
        let store = ReportStore(stateDirectory: stateDirectory, keepDelivered: config.keepDelivered)
        // Nothing pending, nothing to do this launch: no thread is started, which keeps `start`
        // short in the common case. A crash of this process is delivered at the next launch.
        guard store.hasPendingReports else {
            worker.withLock { $0 = .nothingPending }
            return
        }
        let deliverer = Deliverer(
            store: store,
            transport: transport,
            policy: config.delivery.policy,
            symbolicate: Transports.symbolicator,
            // The environment the service was started with, as `start` read it.
            isAllowed: { [environment = config.delivery.environment] in
                CrashReportingChoice.isEnabled(stateDirectory: stateDirectory, environment: environment)
            })
        let delivery = DeliveryWorker(deliverer: deliverer)
        do {
            try delivery.start()
        } catch {
            return
        }
        worker.withLock { $0 = .running(delivery) }
    }

    /// Waits for the first delivery pass of this launch (at most `timeout` seconds) and says
    /// what it did: nil when no transport is configured or the pass did not finish in time.
    /// A service that exits right after its work (a command-line tool) calls this before
    /// exiting; a long-running service never needs to.
    @discardableResult
    public static func waitForDelivery(timeout: Double = 10) -> DeliverySummary? {
        switch worker.withLock({ $0 }) {
        case nil: return nil
        case .nothingPending: return DeliverySummary()
        case .running(let delivery):
            guard case .summary(let summary) = delivery.waitForFirstPass(timeout: timeout) else { return nil }
            return summary
        }
    }

    /// Stops capturing in this process (used when the user opts out while it runs).
    static func stopCapture() {
        scr_set_capture_enabled(0)
    }

    /// The crash reporter's ring as the tracking façade's breadcrumb sink. `start` plugs it into
    /// `TrackingSystem`; a service that bootstraps tracking in another order can plug it itself.
    public static let breadcrumbSink: any BreadcrumbSink = RingBreadcrumbSink()

    /// Bytes the handler reserved at start (ring, compression arena, buffers, image table,
    /// this thread's alternate stack).
    public static var reservedBytes: Int { Int(scr_reserved_bytes()) }

    private static func install(_ config: ResolvedConfiguration) throws {
        let result = config.pendingDirectory.withCString { pending in
            config.appName.withCString { name in
                config.appVersion.withCString { version in
                    config.appBuild.withCString { build in
                        config.environmentName.withCString { env in
                            config.homeDirectory.withCString { home in
                                var c = scr_config(
                                    pending_dir: pending, app_name: name, app_version: version, app_build: build,
                                    app_environment: env, home_dir: home,
                                    breadcrumb_capacity: UInt32(config.breadcrumbCapacity))
                                return scr_install(&c)
                            }
                        }
                    }
                }
            }
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
}
