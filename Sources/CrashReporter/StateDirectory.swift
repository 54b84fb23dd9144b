import CrashReporterSupport

/// Finds the directory that holds a service's pending reports and stored choices.
public enum StateDirectory {
    /// The state directory for `appName`: `explicit` (from the options) or
    /// `CRASH_REPORTER_DIR` as given; otherwise `$STATE_DIRECTORY` (systemd; the first of a
    /// colon-separated list), `$XDG_STATE_HOME` or `~/.local/state`, with `appName` below.
    /// `environment` is the process's when nil.
    public static func resolve(
        appName: String,
        explicit: String? = nil,
        environment: [String: String]? = nil
    ) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        let settings = environment.map(EnvironmentSettings.init) ?? .current()
        // The same reader as `crashreport`'s, so that both find the same directory.
        return settings.stateDirectory ?? settings.platformStateBase + "/" + safeName(appName)
    }

    /// The pending reports of a state directory (every path below it: `StateLayout`).
    public static func pending(_ stateDirectory: String) -> String { StateLayout(stateDirectory).pending }

    /// `$HOME`, else the password database's entry for this user, else `/` (which the handler
    /// never shortens to `~`).
    static func homeDirectory(_ settings: EnvironmentSettings) -> String {
        settings.homeDirectory ?? "/"
    }

    /// A name that is safe as one path component.
    static func safeName(_ name: String) -> String {
        let cleaned = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "app" : cleaned
    }
}
