import CrashReportDelivery
import CrashReporterSupport
import Glibc

/// `Options` with the environment's values filled in and checked. The delivery settings
/// (destination, retry delay, upload timeout, the operator's off switch) are read by
/// `DeliveryConfiguration`, the same reader as `crashreport upload`'s, so that both accept and
/// refuse the same values with the same message.
struct ResolvedConfiguration: Sendable {
    var appName: String
    var appVersion: String
    var appBuild: String
    var environmentName: String
    var stateDirectory: String
    var homeDirectory: String
    var breadcrumbCapacity: Int
    var delivery: DeliveryConfiguration
    var keepDelivered: Int
    var maxThreads: Int
    var maxFramesPerThread: Int
    /// Checked, in whole milliseconds (the C core's unit).
    var threadCaptureTimeout: Duration
    var snapshotSignal: SnapshotSignal
    /// Checked, in whole milliseconds (the C core's unit).
    var hangTimeout: Duration
    var recordRuns: Bool
    var watchExecutors: Bool
    var crashOutput: CrashOutput
    /// The file a crash writes its summary to (the Kubernetes termination message), nil for none.
    var terminationLog: String?

    var pendingDirectory: String { StateDirectory.pending(stateDirectory) }

    init(options: Options, environment: [String: String]) throws(CrashReporterError) {
        let settings = EnvironmentSettings(environment)
        let name = options.appName ?? settings.raw(.appName) ?? ProcessEnvironment.processName
        appName = name
        appVersion = options.appVersion ?? settings.raw(.appVersion) ?? settings.text(.sentryRelease) ?? ""
        appBuild = options.appBuild ?? settings.raw(.appBuild) ?? ""
        environmentName =
            options.environment ?? settings.text(.sentryEnvironment) ?? ConfigurationDefaults.environmentName
        let dir = StateDirectory.resolve(appName: name, explicit: options.stateDirectory, environment: environment)
        guard dir.hasPrefix("/") else {
            throw .invalidOption("the state directory must be an absolute path: \(dir)")
        }
        stateDirectory = dir
        homeDirectory = StateDirectory.homeDirectory(settings)
        guard (0...4096).contains(options.breadcrumbCapacity) else {
            throw .invalidOption("breadcrumbCapacity must be between 0 and 4096")
        }
        breadcrumbCapacity = options.breadcrumbCapacity
        do {
            delivery = try DeliveryConfiguration(
                environment: environment,
                sentryDSN: options.sentryDSN.map { .init($0, name: "Options.sentryDSN") },
                uploadURL: options.uploadURL.map { .init($0, name: "Options.uploadURL") },
                otlp: options.otlp.map { otlp in
                    OTLPSettings.Given(
                        logsEndpoint: otlp.logsEndpoint, headers: otlp.headers, encoding: otlp.encoding?.rawValue,
                        serviceName: otlp.serviceName, resourceAttributes: otlp.resourceAttributes, name: "Options.otlp"
                    )
                },
                retryBaseDelay: options.retryBaseDelay.map { .init($0.inSeconds, name: "Options.retryBaseDelay") },
                limits: DeliveryLimits.Given(
                    capCount: .init(options.capCount, name: "Options.capCount"),
                    capWindow: .init(options.capWindow?.inSeconds, name: "Options.capWindow"),
                    maxPendingReports: .init(options.maxPendingReports, name: "Options.maxPendingReports"),
                    maxPendingBytes: .init(options.maxPendingBytes, name: "Options.maxPendingBytes"),
                    keepDays: .init(options.retention.map(\.inDays), name: "Options.retention")))
        } catch {
            throw .invalidOption(error.description)
        }
        keepDelivered = max(0, options.keepDelivered)
        guard (1...4096).contains(options.maxThreads) else {
            throw .invalidOption("maxThreads must be between 1 and 4096")
        }
        maxThreads = options.maxThreads
        guard (1...256).contains(options.maxFramesPerThread) else {
            throw .invalidOption("maxFramesPerThread must be between 1 and 256")
        }
        maxFramesPerThread = options.maxFramesPerThread
        threadCaptureTimeout = try Self.milliseconds(
            options.threadCaptureTimeout, in: 1...10_000, name: "threadCaptureTimeout", range: "1 ms and 10 s")
        let givenHangTimeout: Duration
        if let option = options.hangTimeout {
            givenHangTimeout = option
        } else {
            givenHangTimeout = try Self.hangTimeout(settings)
        }
        hangTimeout = try Self.milliseconds(
            givenHangTimeout, in: 100...3_600_000,
            name: options.hangTimeout == nil ? EnvironmentVariable.hangTimeoutSeconds.name : "hangTimeout",
            range: "100 ms and 1 h")
        recordRuns = options.recordRuns && !settings.isZero(.runRecords)
        watchExecutors = options.watchExecutors && !settings.isZero(.watchExecutors)
        if let output = options.crashOutput {
            crashOutput = output
        } else {
            crashOutput = try Self.crashOutput(settings)
        }
        terminationLog = Self.terminationLog(settings)
        if let signal = options.snapshotSignal {
            snapshotSignal = signal
        } else {
            snapshotSignal = try Self.snapshotSignal(settings)
        }
    }

    /// `duration` cut to whole milliseconds, checked against `bounds` (in milliseconds).
    private static func milliseconds(
        _ duration: Duration, in bounds: ClosedRange<Int>, name: String, range: String
    ) throws(CrashReporterError) -> Duration {
        let (seconds, attoseconds) = duration.components
        let ms = seconds.multipliedReportingOverflow(by: 1000)
        guard !ms.overflow, case let total = ms.partialValue + attoseconds / 1_000_000_000_000_000,
            bounds.contains(Int(clamping: total))
        else { throw .invalidOption("\(name) must be between \(range)") }
        return .milliseconds(total)
    }

    /// `CRASH_REPORTER_HANG_TIMEOUT_SECONDS`, `ConfigurationDefaults.hangTimeout` when unset.
    static func hangTimeout(_ settings: EnvironmentSettings) throws(CrashReporterError) -> Duration {
        do throws(SettingError) {
            guard let seconds = try settings.seconds(.hangTimeoutSeconds) else {
                return ConfigurationDefaults.hangTimeout
            }
            // Clamped before the conversion: 1e30 is refused by the range check, not a trap.
            return .milliseconds(Int64(min(seconds * 1000, 1e15).rounded()))
        } catch {
            throw .invalidOption(error.description)
        }
    }

    /// `CRASH_REPORTER_STDERR`: `report`, `summary` or `off` (any case); `report` when unset.
    static func crashOutput(_ settings: EnvironmentSettings) throws(CrashReporterError) -> CrashOutput {
        guard let raw = settings.text(.stderrCopy) else { return .report }
        guard let output = CrashOutput(rawValue: raw.lowercased()) else {
            throw .invalidOption(
                "\(EnvironmentVariable.stderrCopy.name) must be report, summary or off (got \"\(raw)\")")
        }
        return output
    }

    /// Kubernetes' default termination message file.
    static let kubernetesTerminationLog = "/dev/termination-log"

    /// `CRASH_REPORTER_TERMINATION_LOG` (`off`: none), else /dev/termination-log when it exists and
    /// this process may write it (Kubernetes mounts it into every container), else none.
    static func terminationLog(_ settings: EnvironmentSettings) -> String? {
        if let path = settings.text(.terminationLog) { return path.lowercased() == "off" ? nil : path }
        return access(kubernetesTerminationLog, W_OK) == 0 ? kubernetesTerminationLog : nil
    }

    /// `CRASH_REPORTER_SNAPSHOT_SIGNAL`: `QUIT`, `USR1`, `USR2` (with or without `SIG`, any case)
    /// or `off`; SIGQUIT when unset.
    static func snapshotSignal(_ settings: EnvironmentSettings) throws(CrashReporterError) -> SnapshotSignal {
        let name = EnvironmentVariable.snapshotSignal.name
        guard let raw = settings.text(.snapshotSignal) else { return .quit }
        var value = raw.uppercased()
        if value.hasPrefix("SIG") { value.removeFirst(3) }
        if value == "OFF" { return .off }
        guard let signal = SnapshotSignal(rawValue: value), signal != .off else {
            throw .invalidOption("\(name) must be QUIT, USR1, USR2 or off (got \"\(raw)\")")
        }
        return signal
    }
}
