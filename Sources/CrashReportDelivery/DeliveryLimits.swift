import CrashReporterSupport

/// How much a crash loop may send and keep (docs/crash-loops.md):
///
/// | setting | variable | default |
/// |---|---|---|
/// | `capCount`: full reports per signature and window (0: no cap) | `CRASH_REPORTER_CAP_COUNT` | 5 |
/// | `capWindow`: the window, in seconds | `CRASH_REPORTER_CAP_WINDOW_SECONDS` | 3600 |
/// | `maxPendingReports`: reports kept unsent, in `pending/` and in `withheld/` each (0: no bound) | `CRASH_REPORTER_MAX_PENDING_REPORTS` | 100 |
/// | `maxPendingBytes`: their bytes, in each folder (0: no bound) | `CRASH_REPORTER_MAX_PENDING_BYTES` | 50 MiB |
/// | `keepDays`: days `delivered/`, `rejected/` and `withheld/` keep a report (0: no bound) | `CRASH_REPORTER_KEEP_DAYS` | 30 |
package struct DeliveryLimits: Sendable, Equatable {
    package var capCount: Int
    package var capWindow: Double
    package var maxPendingReports: Int
    package var maxPendingBytes: Int
    package var keepDays: Double

    package static let capCountVariable = "CRASH_REPORTER_CAP_COUNT"
    package static let capWindowVariable = "CRASH_REPORTER_CAP_WINDOW_SECONDS"
    package static let maxPendingReportsVariable = "CRASH_REPORTER_MAX_PENDING_REPORTS"
    package static let maxPendingBytesVariable = "CRASH_REPORTER_MAX_PENDING_BYTES"
    package static let keepDaysVariable = "CRASH_REPORTER_KEEP_DAYS"

    package init(
        capCount: Int = 5, capWindow: Double = 3600, maxPendingReports: Int = 100,
        maxPendingBytes: Int = 50 << 20, keepDays: Double = 30
    ) {
        self.capCount = capCount
        self.capWindow = capWindow
        self.maxPendingReports = maxPendingReports
        self.maxPendingBytes = maxPendingBytes
        self.keepDays = keepDays
    }

    /// No cap and no bound: every report is sent and kept as before.
    package static let unlimited = DeliveryLimits(
        capCount: 0, capWindow: 0, maxPendingReports: 0, maxPendingBytes: 0, keepDays: 0)

    /// Values given in code or on the command line (nil: not given), each with the name its
    /// error uses; what is not given comes from the environment, else the default.
    package struct Given: Sendable {
        package var capCount: DeliveryConfiguration.Given<Int>?
        package var capWindow: DeliveryConfiguration.Given<Double>?
        package var maxPendingReports: DeliveryConfiguration.Given<Int>?
        package var maxPendingBytes: DeliveryConfiguration.Given<Int>?
        package var keepDays: DeliveryConfiguration.Given<Double>?

        package init(
            capCount: DeliveryConfiguration.Given<Int>? = nil, capWindow: DeliveryConfiguration.Given<Double>? = nil,
            maxPendingReports: DeliveryConfiguration.Given<Int>? = nil,
            maxPendingBytes: DeliveryConfiguration.Given<Int>? = nil,
            keepDays: DeliveryConfiguration.Given<Double>? = nil
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
    package init(environment: [String: String], given: Given = Given()) throws(SettingError) {
        self.init()
        func count(_ value: DeliveryConfiguration.Given<Int>?, _ variable: String) throws(SettingError) -> Int? {
            if let given = value, let value = given.value {
                guard value >= 0 else { throw SettingError(name: given.name, value: "\(value)", rule: "be 0 or more") }
                return value
            }
            return try Setting.count(environment[variable], name: variable)
        }
        func seconds(_ value: DeliveryConfiguration.Given<Double>?, _ variable: String) throws(SettingError)
            -> Double?
        {
            if let given = value, let value = given.value { return try Setting.seconds(value, name: given.name) }
            return try Setting.seconds(environment[variable], name: variable)
        }
        if let value = try count(given.capCount, Self.capCountVariable) { capCount = value }
        if let value = try seconds(given.capWindow, Self.capWindowVariable) { capWindow = value }
        if let value = try count(given.maxPendingReports, Self.maxPendingReportsVariable) { maxPendingReports = value }
        if let value = try count(given.maxPendingBytes, Self.maxPendingBytesVariable) { maxPendingBytes = value }
        if let value = try seconds(given.keepDays, Self.keepDaysVariable) { keepDays = value }
    }

    /// Whether identical reports are capped at all.
    package var caps: Bool { capCount > 0 && capWindow > 0 }
}
