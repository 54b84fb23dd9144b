/// The one reader of environment variables, for the service and the tools alike: each value
/// comes out as a plain setting (text, seconds, a count, a flag, a list) by the rules of
/// ``Setting``, with ``SettingError``'s messages, and the modules that use it make their own
/// types of it. A value given in code or on the command line (a ``GivenSetting``) stands in
/// for its variable here too, so that both are checked by one rule.
///
/// Made from a copy of the environment (the process's by default), so that a test, or a tool
/// checking a service's settings, can give any other.
package struct EnvironmentSettings: Sendable {
    /// Every variable as given, for the readers that take an environment whole (the HTTP
    /// client's proxies and trust store, handed on to a transport).
    package let variables: [String: String]

    package init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// The process's environment, read now.
    package static func current() -> EnvironmentSettings {
        EnvironmentSettings(ProcessEnvironment.current())
    }

    /// The value exactly as set, nil when unset.
    package func raw(_ variable: EnvironmentVariable) -> String? {
        variables[variable.name]
    }

    /// The value as set, nil when unset or empty (an empty value counts as none).
    package func nonEmpty(_ variable: EnvironmentVariable) -> String? {
        raw(variable).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The value trimmed of ASCII whitespace; nil when unset or blank.
    package func text(_ variable: EnvironmentVariable) -> String? {
        Setting.text(raw(variable))
    }

    /// The text given in code, else the variable's (blank counts as none in both).
    package func text(_ given: String?, or variable: EnvironmentVariable) -> String? {
        Setting.text(given) ?? text(variable)
    }

    /// The first of `variables` that is set and not blank, with its trimmed value.
    package func first(_ variables: EnvironmentVariable...) -> (variable: EnvironmentVariable, text: String)? {
        for variable in variables {
            if let text = text(variable) { return (variable, text) }
        }
        return nil
    }

    /// The variable's raw value with its name, for a reader that applies its own rule and names
    /// the variable in its error.
    package func given(_ variable: EnvironmentVariable) -> GivenSetting<String> {
        GivenSetting(raw(variable), name: variable.name)
    }

    /// The value split at `separator`, empty parts kept out.
    package func list(_ variable: EnvironmentVariable, separator: Character = ":") -> [String] {
        (raw(variable) ?? "").split(separator: separator).map(String.init)
    }

    /// Whether the variable is exactly `0`: the switch that turns a default-on feature off.
    package func isZero(_ variable: EnvironmentVariable) -> Bool {
        raw(variable) == "0"
    }

    /// Seconds, zero or more (``Setting/seconds(_:name:)``).
    package func seconds(_ variable: EnvironmentVariable) throws(SettingError) -> Double? {
        try Setting.seconds(raw(variable), name: variable.name)
    }

    /// A whole number, 0 or more (``Setting/count(_:name:)``).
    package func count(_ variable: EnvironmentVariable) throws(SettingError) -> Int? {
        try Setting.count(raw(variable), name: variable.name)
    }

    /// A boolean word (``Setting/boolean(_:name:)``).
    package func boolean(_ variable: EnvironmentVariable) throws(SettingError) -> Bool? {
        try Setting.boolean(raw(variable), name: variable.name)
    }

    /// The seconds given in code when there are any (checked by the same rule, blamed on the
    /// option), else the variable's.
    package func seconds(_ given: GivenSetting<Double>?, or variable: EnvironmentVariable) throws(SettingError)
        -> Double?
    {
        if let given, let value = given.value { return try Setting.seconds(value, name: given.name) }
        return try seconds(variable)
    }

    /// The count given in code when there is one (0 or more, blamed on the option), else the
    /// variable's.
    package func count(_ given: GivenSetting<Int>?, or variable: EnvironmentVariable) throws(SettingError) -> Int? {
        if let given, let value = given.value {
            guard value >= 0 else { throw SettingError(name: given.name, value: "\(value)", rule: "be 0 or more") }
            return value
        }
        return try count(variable)
    }

    // MARK: The state directory's root

    /// `CRASH_REPORTER_DIR`: the state directory, named outright.
    package var stateDirectory: String? { text(.stateDirectory) }

    /// Where the platform keeps the state of services: `$STATE_DIRECTORY` (systemd; the first
    /// of a colon-separated list), else `$XDG_STATE_HOME` when absolute, else `~/.local/state`.
    package var platformStateBase: String {
        if let systemd = raw(.systemdStateDirectory)?.split(separator: ":").first, !systemd.isEmpty {
            return String(systemd)
        }
        if let xdg = raw(.xdgStateHome), xdg.hasPrefix("/") { return xdg }
        let home = homeDirectory ?? "/"
        return (home == "/" ? "" : home) + "/.local/state"
    }

    /// `$HOME` when it is an absolute path, else this user's entry in the password database;
    /// nil when neither says.
    package var homeDirectory: String? {
        if let home = raw(.home), home.hasPrefix("/") { return home }
        return ProcessEnvironment.passwordDatabaseHome()
    }
}

/// A value given in code or on the command line that stands in for a variable, with the name
/// its errors use (`Options.uploadURL`, `--url`).
package struct GivenSetting<Value: Sendable>: Sendable {
    package var value: Value?
    package var name: String

    package init(_ value: Value?, name: String) {
        self.value = value
        self.name = name
    }
}
