import Foundation
import TestSupport
import Testing

/// The service's own worker, which has no toolchain to run, reads the inlined calls the runtime
/// leaves out from the binary's DWARF itself: a release trap it sends to Sentry names the
/// runtime failure and the app's function (docs/symbolication.md).
@Suite("The worker's reports carry every inlined level")
struct WorkerInlineFramesTests {
    static let kinds = TrapTitle.all.filter { ["index-out-of-range", "narrowing-conversion"].contains($0.kind) }

    @Test(.enabled(if: Binaries.crashTestBuilds.contains("release")), arguments: kinds)
    func releaseTrapSentFromTheServiceNamesTheFault(expected: TrapTitle) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "release"))
        defer { sandbox.remove() }
        let crashed = try await sandbox.crash(expected.kind)
        #expect(crashed.signal != nil, "status \(crashed.status), stderr: \(crashed.stderr)")
        try #require(sandbox.reports.count == 1)

        // No llvm-symbolizer where the service runs: PATH holds nothing but a shell's basics.
        let server = try FaultServer(responses: ["200"])
        let dsn = "http://publickey123@127.0.0.1:\(server.port)/42"
        let relaunched = try await sandbox.run(["run"], environment: ["SENTRY_DSN": dsn, "PATH": "/nonexistent"])
        #expect(relaunched.exitCode == 0, "\(relaunched.stderr)")

        let request = try #require(server.reportRequests.first)
        let envelope = try #require(request["envelope"] as? [String: Any])
        let items = try #require(envelope["items"] as? [[String: Any]])
        let event = try #require(items.first?["payload"] as? [String: Any])
        let exception = try #require((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])
        let value = exception.first?["value"] as? String ?? ""
        #expect(value == "Swift runtime failure: \(expected.reason)", "\(value)")
        // Sentry titles the issue by the exception and groups it by our fingerprint (the signature).
        let fingerprint = event["fingerprint"] as? [String] ?? []
        #expect(fingerprint.contains(expected.function), "\(fingerprint)")
        #expect(fingerprint.last == expected.reason, "\(fingerprint)")
        let frames = try #require((exception.first?["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        let functions = frames.compactMap { $0["function"] as? String }
        #expect(functions.contains(expected.function), "\(functions)")
        // The levels between the app's function and the trap, which the runtime leaves out, as
        // frames of their own (the failure itself is the exception's value, not a frame).
        if expected.kind == "index-out-of-range" {
            #expect(
                functions.suffix(3) == [
                    expected.function, "specialized Array.subscript.getter",
                    "specialized Array._checkSubscript(_:wasNativeTypeChecked:)",
                ], "innermost last: \(functions)")
        }
    }
}
