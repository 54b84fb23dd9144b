import CrashReporterSupport

/// How much a crash loop may send and keep (docs/crash-loops.md); the defaults are
/// `ConfigurationDefaults`':
///
/// | setting | variable |
/// |---|---|
/// | `capCount`: full reports per signature and window (0: no cap) | `CRASH_REPORTER_CAP_COUNT` |
/// | `capWindow`: the window (the variable in seconds) | `CRASH_REPORTER_CAP_WINDOW_SECONDS` |
/// | `maxPendingReports`: reports kept unsent, in `pending/` and in `withheld/` each (0: no bound) | `CRASH_REPORTER_MAX_PENDING_REPORTS` |
/// | `maxPendingBytes`: their bytes, in each folder (0: no bound) | `CRASH_REPORTER_MAX_PENDING_BYTES` |
/// | `retention`: how long `delivered/`, `rejected/` and `withheld/` keep a report (zero: no bound; the variable in days) | `CRASH_REPORTER_KEEP_DAYS` |
package struct DeliveryLimits: Sendable, Equatable {
    package var capCount: Int
    package var capWindow: Duration
    package var maxPendingReports: Int
    package var maxPendingBytes: Int
    package var retention: Duration

    package init(
        capCount: Int = ConfigurationDefaults.capCount,
        capWindow: Duration = ConfigurationDefaults.capWindow,
        maxPendingReports: Int = ConfigurationDefaults.maxPendingReports,
        maxPendingBytes: Int = ConfigurationDefaults.maxPendingBytes,
        retention: Duration = ConfigurationDefaults.retention
    ) {
        self.capCount = capCount
        self.capWindow = capWindow
        self.maxPendingReports = maxPendingReports
        self.maxPendingBytes = maxPendingBytes
        self.retention = retention
    }

    /// No cap and no bound: every report is sent and kept as before.
    package static let unlimited = DeliveryLimits(
        capCount: 0, capWindow: .zero, maxPendingReports: 0, maxPendingBytes: 0, retention: .zero)

    /// Values given in code or on the command line (nil: not given), each with the name its
    /// error uses and in its variable's unit (seconds, days); what is not given comes from the environment, else the default.
    package struct Given: Sendable {
        package var capCount: GivenSetting<Int>?
        package var capWindow: GivenSetting<Double>?
        package var maxPendingReports: GivenSetting<Int>?
        package var maxPendingBytes: GivenSetting<Int>?
        package var keepDays: GivenSetting<Double>?

        package init(
            capCount: GivenSetting<Int>? = nil, capWindow: GivenSetting<Double>? = nil,
            maxPendingReports: GivenSetting<Int>? = nil,
            maxPendingBytes: GivenSetting<Int>? = nil,
            keepDays: GivenSetting<Double>? = nil
        ) {
            self.capCount = capCount
            self.capWindow = capWindow
            self.maxPendingReports = maxPendingReports
            self.maxPendingBytes = maxPendingBytes
            self.keepDays = keepDays
        }
    }

    /// Reads the environment's variables where `given` has no value; throws the first value
    /// that breaks its rule (a count: a whole number, 0 or more; seconds and days: zero or more).
    package init(_ settings: EnvironmentSettings, given: Given = Given()) throws(SettingError) {
        self.init()
        if let value = try settings.count(given.capCount, or: .capCount) { capCount = value }
        if let value = try settings.seconds(given.capWindow, or: .capWindowSeconds) {
            capWindow = .seconds(clamping: value)
        }
        if let value = try settings.count(given.maxPendingReports, or: .maxPendingReports) { maxPendingReports = value }
        if let value = try settings.count(given.maxPendingBytes, or: .maxPendingBytes) { maxPendingBytes = value }
        if let value = try settings.seconds(given.keepDays, or: .keepDays) { retention = .days(value) }
    }

    /// Whether identical reports are capped at all.
    package var caps: Bool { capCount > 0 && capWindow > .zero }
}
