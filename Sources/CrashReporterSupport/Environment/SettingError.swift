/// A configuration value that breaks its rule, named by the variable or option it came from:
/// `CRASH_REPORTER_RETRY_BASE_SECONDS must be a number of seconds, zero or more (got "-1")`.
package struct SettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The environment variable or option (`CRASH_REPORTER_URL`, `--url`).
    package var name: String
    /// The value as given.
    package var value: String
    /// What the value must be, completing "\(name) must …" (`be an http or https URL`).
    package var rule: String

    package init(name: String, value: String, rule: String) {
        self.name = name
        self.value = value
        self.rule = rule
    }

    package var description: String {
        // The value is shown as a JSON string: quoted, control characters escaped.
        "\(name) must \(rule) (got \(JSONValue.string(String(value.prefix(200)))))"
    }
}
