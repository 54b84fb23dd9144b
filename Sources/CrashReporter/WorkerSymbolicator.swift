import CrashReportDelivery
import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication
import Tracking

/// Builds the next-launch worker's symbolicator from the environment.
enum WorkerSymbolicator {
    /// Symbols for the transports that want them, from the binaries still on this machine, or
    /// each image's debug file in `CRASH_REPORTER_DEBUG_DIRS` or the system's `/usr/lib/debug`,
    /// with every inlined call the debug information has (no toolchain here).
    /// The debuginfod servers of `DEBUGINFOD_URLS` only with `CRASH_REPORTER_DEBUGINFOD=1`: the
    /// worker makes no network request but the upload unless asked
    /// (docs/decisions/0094-debuginfod-behind-a-seam-and-off-in-the-service.md).
    static func make(environment: [String: String]) -> @Sendable (CrashReport) -> ReportSymbols {
        // The system's directory comes last by itself (Symbolicator searches it for every caller).
        var directories = DebugDirectories([], environment: environment)
        do {
            if try EnvironmentSettings(environment).boolean(.workerDebuginfod) == true {
                directories.debuginfod = try Debuginfod(
                    environment: environment, fetcher: HTTPDebugFileFetcher(environment: environment))
            }
        } catch {
            Diagnostics.report("\(error); no debuginfod server is asked", level: .warning)
        }
        let symbolicator = Symbolicator(debugDirectories: directories)
        return { report in symbolicator.symbolicate(report) }
    }
}
