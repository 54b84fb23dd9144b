import CrashReportDelivery
import CrashReporterSupport

/// The crash-reporting choice: on by default (opt-out), stored in its own file,
/// `<state>/crash-reporting.consent`, and never shared with the analytics choice.
/// Operators can also turn it off with `CRASH_REPORTER_DISABLED=1`. (The file's format is
/// `CrashReportingChoice`'s, which `crashreport upload` reads too.)
public enum CrashReportingConsent {
    /// Whether crash reports are captured for this state directory and environment (the
    /// process's when nil). A `CRASH_REPORTER_DISABLED` value that is not a boolean counts as
    /// off (and makes `CrashReporter.start` fail with the reason).
    public static func isEnabled(stateDirectory: String, environment: [String: String]? = nil) -> Bool {
        CrashReportingChoice.isEnabled(
            stateDirectory: stateDirectory, environment: environment ?? ProcessEnvironment.current())
    }

    /// The stored choice, nil when the user never chose.
    public static func storedChoice(stateDirectory: String) -> Bool? {
        CrashReportingChoice.stored(stateDirectory: stateDirectory)
    }

    /// Stores the choice. Opting out deletes every pending report and the run records and, in a running service,
    /// stops capture at once. Throws `CrashReporterError` when the choice cannot be stored.
    public static func set(enabled: Bool, stateDirectory: String) throws {
        do throws(FileError) {
            try CrashReportingChoice.store(enabled: enabled, stateDirectory: stateDirectory)
        } catch {
            throw CrashReporterError(error)
        }
        if !enabled {
            ReportStore(stateDirectory: stateDirectory).deletePending()
            RunLedger(stateDirectory: stateDirectory).forget()
            if CrashReporter.status == .capturing(stateDirectory: stateDirectory) { CrashReporter.stopCapture() }
        }
    }
}
