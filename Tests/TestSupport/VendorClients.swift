import CrashReporterSupport
import Foundation

/// The analytics vendors' official Python clients (PyPI `posthog` and `telemetrydeckpy`) in a
/// venv under `.build/vendor-clients`, made on first use, and Scripts/vendor_clients.py, which
/// sends one event through either of them: what the wire-format tests compare the providers with.
public enum VendorClients {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let venv = packageRoot.appendingPathComponent(".build/vendor-clients")
    static let made = Lock(false)

    /// The venv's python, making the venv first when it is not there (once per test process; a
    /// venv made by another process is reused, one half made is never seen: it is renamed into
    /// place when complete).
    public static func python() throws -> String {
        let python = venv.appendingPathComponent("bin/python").path
        try made.withLock { made in
            if made || FileManager.default.isExecutableFile(atPath: python) { return }
            let building = venv.path + ".tmp-\(getpid())"
            try? FileManager.default.removeItem(atPath: building)
            _ = try ProgramRun.output("/usr/bin/env", ["python3", "-m", "venv", building])
            _ = try ProgramRun.output(
                building + "/bin/python", ["-m", "pip", "install", "-q", "posthog", "telemetrydeckpy"])
            // Its python finds the packages from where it is (pyvenv.cfg beside it), so the
            // venv works once moved; only its pip scripts name the old path, and none is used.
            if rename(building, venv.path) != 0, !FileManager.default.isExecutableFile(atPath: python) {
                throw TestFailure("cannot move the vendor clients' venv into place: errno \(errno)")
            }
            made = true
        }
        return python
    }

    /// Sends `event` (see the script for its members) through `backend`'s official client to `url`.
    public static func send(backend: String, url: String, event: [String: Any]) throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: event), as: UTF8.self)
        _ = try ProgramRun.output(
            try python(), [PythonServer.sharedScripts + "/vendor_clients.py", backend, url, json])
    }
}
