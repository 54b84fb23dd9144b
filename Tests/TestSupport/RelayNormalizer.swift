import Foundation

/// Sentry's own definition of an event: Relay's normalization (the `sentry-relay` package from
/// PyPI, the library Sentry's servers run), in a virtual environment under `.build` made on
/// first use. ``normalize(_:)`` gives back the event as Relay stores it: a member Relay does not
/// know is dropped and a value it rejects is listed in `errors`.
public enum RelayNormalizer {
    /// The version the tests were written against.
    public static let version = "0.10.1"

    static let environment = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/relay-\(version)")

    static let script = """
        import json, sys
        from sentry_relay.processing import StoreNormalizer
        print(json.dumps(StoreNormalizer().normalize_event(json.load(sys.stdin))))
        """

    /// `event` (a Sentry event payload) as Relay normalizes it.
    public static func normalize(_ event: Data) throws -> [String: Any] {
        let python = try interpreter()
        let output = try ProgramRun.output(python, ["-c", script], input: event)
        guard let object = try JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw TestFailure("Relay gave back no event")
        }
        return object
    }

    /// The environment's python, made with `sentry-relay` installed when it is not there yet. It
    /// is made beside its final place and moved there, so two test processes never share a
    /// half-made one.
    static func interpreter() throws -> String {
        let python = environment.appendingPathComponent("bin/python").path
        if FileManager.default.isExecutableFile(atPath: python) { return python }
        let staging = environment.path + ".\(getpid())"
        try? FileManager.default.removeItem(atPath: staging)
        _ = try ProgramRun.output("/usr/bin/env", ["python3", "-m", "venv", staging])
        _ = try ProgramRun.output(staging + "/bin/python", ["-m", "pip", "install", "-q", "sentry-relay==\(version)"])
        if (try? FileManager.default.moveItem(atPath: staging, toPath: environment.path)) == nil {
            try? FileManager.default.removeItem(atPath: staging)
        }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestFailure("no Python environment with sentry-relay at \(environment.path)")
        }
        return python
    }
}
