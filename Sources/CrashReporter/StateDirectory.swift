import CrashReportDelivery
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
        let environment = environment ?? ProcessEnvironment.current()
        // The same reader as `crashreport`'s, so that both find the same directory.
        if let dir = DeliveryConfiguration.stateDirectory(environment: environment) { return dir }
        let base: String
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !systemd.isEmpty {
            base = String(systemd)
        } else if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            let home = homeDirectory(environment: environment)
            base = (home == "/" ? "" : home) + "/.local/state"
        }
        return base + "/" + safeName(appName)
    }

    /// The pending reports of a state directory (every path below it: `StateLayout`).
    public static func pending(_ stateDirectory: String) -> String { StateLayout(stateDirectory).pending }

    /// `$HOME`, else the password database's entry for this user, else `/` (which the handler
    /// never shortens to `~`).
    static func homeDirectory(environment: [String: String]) -> String {
        ProcessEnvironment.homeDirectory(environment: environment) ?? "/"
    }

    /// A name that is safe as one path component.
    static func safeName(_ name: String) -> String {
        let cleaned = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "app" : cleaned
    }
}
