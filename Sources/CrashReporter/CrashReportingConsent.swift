import Foundation

/// The crash-reporting choice: on by default (opt-out), stored in its own file,
/// `<state>/crash-reporting.consent`, and never shared with the analytics choice.
/// Operators can also turn it off with `CRASH_REPORTER_DISABLED=1`.
public enum CrashReportingConsent {
    static let fileName = "crash-reporting.consent"

    /// Whether crash reports are captured for this state directory and environment.
    public static func isEnabled(
        stateDirectory: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        if let value = environment["CRASH_REPORTER_DISABLED"], isTrue(value) { return false }
        return storedChoice(stateDirectory: stateDirectory) ?? true
    }

    /// The stored choice, nil when the user never chose.
    public static func storedChoice(stateDirectory: String) -> Bool? {
        guard let data = FileManager.default.contents(atPath: stateDirectory + "/" + fileName),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        switch text.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "enabled": return true
        case "disabled": return false
        default: return nil
        }
    }

    /// Stores the choice. Opting out deletes every pending report and, in a running service,
    /// stops capture at once.
    public static func set(enabled: Bool, stateDirectory: String) throws {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        try AtomicFile.write(Data((enabled ? "enabled\n" : "disabled\n").utf8), to: stateDirectory + "/" + fileName)
        if !enabled {
            PendingReports.deleteAll(in: StateDirectory.pending(stateDirectory))
            if CrashReporter.status == .capturing(stateDirectory: stateDirectory) { CrashReporter.stopCapture() }
        }
    }

    static func isTrue(_ value: String) -> Bool {
        ["1", "true", "yes", "on"].contains(value.lowercased())
    }
}
