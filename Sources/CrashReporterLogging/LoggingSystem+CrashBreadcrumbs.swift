import CrashReporter
import Logging

extension LoggingSystem {
    /// Bootstraps swift-log with the service's own handler and a `BreadcrumbLogHandler` beside
    /// it, and sends the package's diagnostics to a logger labelled `swift-crash-reporter`:
    ///
    /// ```swift
    /// LoggingSystem.bootstrapWithCrashBreadcrumbs(StreamLogHandler.standardOutput)
    /// ```
    ///
    /// Log lines at `level` or above (default `info`) become breadcrumbs. Setting a logger's
    /// `logLevel` sets it for both handlers, as `MultiplexLogHandler` does.
    public static func bootstrapWithCrashBreadcrumbs(
        _ factory: @escaping @Sendable (String) -> any LogHandler, level: Logger.Level = .info
    ) {
        bootstrap { label in
            MultiplexLogHandler([factory(label), BreadcrumbLogHandler(label: label, level: level)])
        }
        CrashReporterLogging.logDiagnostics(to: Logger(label: CrashReporterLogging.diagnosticsLabel))
    }
}

/// The package's diagnostics as log lines.
public enum CrashReporterLogging {
    /// The label of the logger `bootstrapWithCrashBreadcrumbs` sends diagnostics to.
    public static let diagnosticsLabel = "swift-crash-reporter"

    /// Sends the package's diagnostics (a report it could not deliver, a state directory it
    /// cannot write, a handler it found already installed, an analytics event it dropped) to
    /// `logger`, those kept since `start` first.
    public static func logDiagnostics(to logger: Logger) {
        CrashReporter.setDiagnosticHandler { diagnostic in
            let level: Logger.Level =
                switch diagnostic.level {
                case .info: .info
                case .warning: .warning
                case .error: .error
                }
            logger.log(level: level, "\(diagnostic.message)")
        }
    }
}
