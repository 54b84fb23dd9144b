import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `crash-collector` (the debug binary next to the test bundle) as a child process on
/// a loopback port, with its own data directory, for the end-to-end tests. Started through
/// `ChildProcess`, so its standard output is a file that we read for the ready line.
final class CollectorChild {
    let port: Int
    let data: URL
    private let child: ChildProcess.Running
    private var ended = false

    /// `home` is the collector's `$HOME`: a report's `~/bin/crash-test` is looked up there.
    /// `port` 0 lets the collector pick a free one.
    init(
        data: URL, home: URL, port: Int = 0, arguments: [String] = [], environment: [String: String] = [:]
    ) async throws {
        self.data = data
        child = try ChildProcess.start(
            [Binaries.debug("crash-collector").path, "--port", String(port), "--data", data.path] + arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": home.path].merging(environment) { $1 }, timeout: 20)
        let stdout = child.directory.appendingPathComponent("stdout")
        let prefix = "crash-collector listening on http://127.0.0.1:"
        // The file is read once more after the deadline: under a full test run this task may
        // not be resumed for seconds, and the line may well be there by then.
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while true {
            let text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
            if let range = text.range(of: prefix), let end = text[range.upperBound...].firstIndex(of: "\n") {
                found = Int(text[range.upperBound..<end])
            }
            if found != nil || Date() > deadline { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        guard let found else {
            kill(child.pid, SIGKILL)
            let result = try? await child.wait()
            ended = true
            throw EndToEndError("the collector did not get ready: \(result?.stderr ?? "")")
        }
        self.port = found
    }

    /// Stops it with SIGTERM, as an operator would, and returns how it ended.
    @discardableResult
    func stop() async throws -> ChildProcess.Result {
        kill(child.pid, SIGTERM)
        ended = true
        return try await child.wait()
    }

    deinit {
        // A test that failed before `stop` must not leave a server behind.
        guard !ended else { return }
        kill(child.pid, SIGKILL)
        _ = waitpid(child.pid, nil, 0)
        try? FileManager.default.removeItem(at: child.directory)
    }

    var reportsURL: String { "http://127.0.0.1:\(port)/api/reports" }

    /// One `GET` (URLSession, 10 s at most): the status and the body as text.
    func get(_ path: String) async throws -> (status: Int, text: String) {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
        let (body, response) = try await URLSession.shared.data(for: URLRequest(url: url, timeoutInterval: 10))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: body, as: UTF8.self))
    }

    /// `GET /api/reports`, decoded.
    func storedReports() async throws -> [[String: Any]] {
        let text = try await get("/api/reports").text
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
    }

    /// Names in a folder of the data directory, temporary files left out.
    func files(_ folder: String) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent(folder).path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }
}

struct EndToEndError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension CrashSandbox {
    /// Names in a folder of the state directory (`pending`, `delivered`, `rejected`).
    func names(in folder: String, suffix: String = ".crash") -> [String] {
        let path = state.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(suffix) }
            .sorted()
    }

    /// The id of the only pending report.
    func onlyPendingID() throws -> String {
        let pending = names(in: "pending")
        guard pending.count == 1 else { throw EndToEndError("expected one pending report, found \(pending)") }
        return String(pending[0].dropLast(".crash".count))
    }

    /// `crash-test run`: delivers what earlier crashes left, and says how it went.
    func deliver(_ environment: [String: String]) async throws -> ChildProcess.Result {
        try await run(["run"], environment: environment)
    }

    /// A scratch folder beside the sandbox's home and state, removed with it.
    func scratch(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
