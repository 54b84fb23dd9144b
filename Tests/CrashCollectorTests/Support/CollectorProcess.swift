import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real `crash-collector` process on a free loopback port with its own data directory.
final class CollectorProcess {
    let process: Process
    let port: Int
    let dataDirectory: URL
    private let errorLog: URL

    /// The binary built next to the test bundle.
    static var binary: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("crash-collector")
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("collector-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Starts the collector and waits (at most 20 s) for its "listening" line.
    init(_ arguments: [String] = [], dataDirectory: URL? = nil, environment: [String: String] = [:]) throws {
        self.dataDirectory = try dataDirectory ?? Self.temporaryDirectory()
        errorLog = self.dataDirectory.deletingLastPathComponent()
            .appendingPathComponent("collector-stderr-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process = Process()
        process.executableURL = Self.binary
        process.arguments = ["--port", "0", "--data", self.dataDirectory.path] + arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        let line = try Self.readLine(output.fileHandleForReading.fileDescriptor, timeout: 20)
        guard let range = line.range(of: "crash-collector listening on http://127.0.0.1:"),
            let port = Int(line[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw TestFailure(
                "unexpected first line '\(line)'; stderr: \(String(decoding: (try? Data(contentsOf: errorLog)) ?? Data(), as: UTF8.self))"
            )
        }
        self.port = port
    }

    /// Stops with SIGTERM and waits (bounded) for the exit; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: errorLog)
    }

    var stderr: String { String(decoding: (try? Data(contentsOf: errorLog)) ?? Data(), as: UTF8.self) }

    /// Files in a data subdirectory whose names end with `suffix` (temporary files excluded).
    func files(in subdirectory: String, suffix: String) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(
                atPath: dataDirectory.appendingPathComponent(subdirectory).path)) ?? []
        return names.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted()
    }

    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: Data = Data()
    ) throws -> RawHTTP.Response {
        try RawHTTP.request(port: port, method: method, path: path, headers: headers, body: body)
    }

    private static func readLine(_ fd: Int32, timeout: Double) throws -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while bytes.last != 0x0a && bytes.count < 4096 {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestFailure("no line from the collector within \(timeout) s") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000)) > 0 else { continue }
            var byte: UInt8 = 0
            guard Glibc.read(fd, &byte, 1) == 1 else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
