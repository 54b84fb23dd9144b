import CrashReporterSupport

/// The crash-reporting choice: the user's, stored in `<state>/crash-reporting.consent` (its
/// format is `ConsentFiles`'), and the operators' override `CRASH_REPORTER_DISABLED`. Decided
/// here so that the service (`CrashReportingConsent`) and `crashreport upload` apply one rule.
package enum CrashReportingChoice {

    /// The stored choice, nil when the user never chose (or the file is unreadable).
    package static func stored(stateDirectory: String) -> Bool? {
        ConsentFiles.crashReporting(stateDirectory: stateDirectory)
    }

    /// Whether the operator turned crash reporting off, by the one rule for
    /// `CRASH_REPORTER_DISABLED` (`Setting.boolean`). A value that breaks it is refused by
    /// `DeliveryConfiguration` when the service starts or `crashreport upload` runs. `1`,
    /// `true`, `yes`, `on` turn crash reporting off; `0`, `false`, `no`, `off` (or nothing)
    /// leave it to the user's choice.
    package static func operatorDisabled(_ settings: EnvironmentSettings) throws(SettingError) -> Bool {
        try settings.boolean(.disabled) ?? false
    }

    /// Whether crash reports are captured and delivered: on unless the operator or the user
    /// turned them off. An unreadable `CRASH_REPORTER_DISABLED` counts as off: the operator
    /// meant something, and sending nothing is the safe reading.
    package static func isEnabled(stateDirectory: String, environment: [String: String]) -> Bool {
        if (try? operatorDisabled(EnvironmentSettings(environment))) != false { return false }
        return stored(stateDirectory: stateDirectory) ?? true
    }

    /// Stores the choice, atomically and durably (it must survive a power cut), creating the
    /// state directory when needed.
    package static func store(enabled: Bool, stateDirectory: String) throws(FileError) {
        try ConsentFiles.storeCrashReporting(enabled: enabled, stateDirectory: stateDirectory)
    }
}
