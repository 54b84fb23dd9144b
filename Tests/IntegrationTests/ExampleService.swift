import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// An example service under Examples/ (a package of its own that depends on this one by path),
/// as its tests run it: built once per test process, in debug as scripts/test.sh builds it
/// (docs/decisions/0178-the-tests-extra-builds-are-debug-builds.md), started with a state
/// directory, asked over HTTP on loopback with curl.
struct ExampleService: Sendable {
    /// The package's folder under the package root, e.g. `Examples/NIOService`.
    let folder: String
    /// Its executable product.
    let product: String

    var package: URL { Binaries.packageRoot.appendingPathComponent(folder) }

    /// Builds the example the first time it is asked for in this process; its executable.
    func executable() async throws -> URL {
        if let built = await Built.shared.urls[folder] { return built }
        try Binaries.inheritMirrors(into: package)
        let environment = ProcessInfo.processInfo.environment
        let arguments = ["build", "--package-path", package.path]
        let build = try await ChildProcess.runSwiftPM(arguments, environment: environment, timeout: 1200)
        try #require(build.exitCode == 0, "swift build failed:\n\(build.stdout.suffix(3000))\n\(build.stderr)")
        let bin = try await ChildProcess.runSwiftPM(
            arguments + ["--show-bin-path"], environment: environment, timeout: 120)
        let url = URL(fileURLWithPath: bin.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            .appendingPathComponent(product)
        await Built.shared.set(url, for: folder)
        return url
    }

    /// The executables built in this process, by folder.
    private actor Built {
        static let shared = Built()
        var urls: [String: URL] = [:]
        func set(_ url: URL, for folder: String) { urls[folder] = url }
    }

    /// A running service: its port, once it logged that it listens.
    struct Running {
        var process: ChildProcess.Running
        var port: Int
    }

    /// Starts the service with its reports in `state` (and `extra` in its environment), and
    /// waits (10 s at most) for its "listening on http://127.0.0.1:PORT" line.
    func start(state: String, extra: [String: String] = [:]) async throws -> Running {
        let environment = [
            "CRASH_REPORTER_DIR": state, "SWIFT_BACKTRACE": "enable=no", "PATH": "/usr/bin:/bin",
        ].merging(extra) { $1 }
        let process = try ChildProcess.start([try await executable().path], environment: environment, timeout: 60)
        let log = process.directory.appendingPathComponent("stderr")
        for _ in 0..<400 {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits) { return Running(process: process, port: port) }
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        kill(process.pid, SIGKILL)
        _ = try? await process.wait()
        throw TestFailure("the example service \(product) did not start listening")
    }

    /// `curl` a path of a service on `port`; its output ("" when the service died answering).
    @discardableResult
    static func get(_ port: Int, _ path: String) async throws -> String {
        let result = try await ChildProcess.run(
            ["/usr/bin/curl", "-s", "-m", "10", "http://127.0.0.1:\(port)\(path)"], environment: [:], timeout: 20)
        return result.stdout
    }

    /// The reports in `state`/pending, decoded.
    static func pendingReports(in state: String) throws -> [(file: String, report: CrashReport)] {
        let pending = state + "/pending"
        return try FileManager.default.contentsOfDirectory(atPath: pending).filter { $0.hasSuffix(".crash") }.sorted()
            .map { (pending + "/" + $0, try ReportDecoding.decode(file: pending + "/" + $0)) }
    }
}
