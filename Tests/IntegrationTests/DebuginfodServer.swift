import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// elfutils' `debuginfod` (Debian's package, installed by scripts/ensure-deps.sh) as a child
/// process serving the ELF files of one folder (`-F`), on a free port, with its database beside
/// them. Its environment has no `DEBUGINFOD_URLS`, so it asks no server upstream. (It listens on
/// every interface, as it has no option to bind one; the tests only reach it on 127.0.0.1.)
final class DebuginfodServer {
    static let program = "/usr/bin/debuginfod"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: program) }

    let port: Int
    private let child: ChildProcess.Running
    private var ended = false

    var url: String { "http://127.0.0.1:\(port)" }

    /// Starts it on `folder` and waits until it has scanned the files with `buildIDs`.
    init(serving folder: URL, buildIDs: [String], scratch: URL) async throws {
        port = closedPort()
        child = try ChildProcess.start(
            [
                Self.program, "-F", "-p", String(port), "-d", scratch.appendingPathComponent("index.sqlite").path,
                "-t", "0", "-g", "0", "-c", "1", folder.path,
            ],
            environment: ["PATH": "/usr/bin:/bin", "HOME": scratch.path], timeout: 300)
        // The first scan takes a moment; a file not yet scanned is a 404.
        let deadline = Date().addingTimeInterval(60)
        var waiting = buildIDs
        while let next = waiting.first {
            if try await status(of: "/buildid/\(next)/debuginfo") == 200 {
                waiting.removeFirst()
            } else if Date() > deadline {
                _ = try? await stop()
                throw EndToEndError("debuginfod did not serve \(next) within 60 s")
            } else {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// The status of a `GET` (0 when nothing answers yet; debuginfod refuses `HEAD`).
    private func status(of path: String) async throws -> Int {
        let request = URLRequest(url: try #require(URL(string: url + path)), timeoutInterval: 10)
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return 0 }
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @discardableResult
    func stop() async throws -> ChildProcess.Result {
        kill(child.pid, SIGKILL)
        ended = true
        return try await child.wait()
    }

    deinit {
        guard !ended else { return }
        kill(child.pid, SIGKILL)
        _ = waitpid(child.pid, nil, 0)
    }
}
