import CrashReportFormat
import Foundation

/// The crash-reporting choice as it is stored: `<state>/crash-reporting.consent` holding
/// `enabled` or `disabled` (absent until the user chooses), and the operators' override
/// `CRASH_REPORTER_DISABLED`. Read here so that the service (`CrashReportingConsent`) and
/// `crashreport upload` apply one rule.
public enum CrashReportingChoice {
    public static let fileName = "crash-reporting.consent"

    /// The stored choice, nil when the user never chose (or the file is unreadable).
    public static func stored(stateDirectory: String) -> Bool? {
        guard let data = FileManager.default.contents(atPath: stateDirectory + "/" + fileName),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        switch text.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "enabled": return true
        case "disabled": return false
        default: return nil
        }
    }

    /// Whether crash reports are captured and delivered: on unless the operator or the user
    /// turned them off.
    public static func isEnabled(stateDirectory: String, environment: [String: String]) -> Bool {
        if let value = environment["CRASH_REPORTER_DISABLED"], isTrue(value) { return false }
        return stored(stateDirectory: stateDirectory) ?? true
    }

    /// Stores the choice, atomically.
    public static func store(enabled: Bool, stateDirectory: String) throws {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        try AtomicFile.write(
            Data((enabled ? "enabled\n" : "disabled\n").utf8), to: URL(fileURLWithPath: stateDirectory + "/" + fileName)
        )
    }

    static func isTrue(_ value: String) -> Bool {
        ["1", "true", "yes", "on"].contains(value.lowercased())
    }
}
