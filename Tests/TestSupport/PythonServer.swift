import CrashReporterSupport
import Foundation

/// A Python script as a child process: started with its arguments, ready once it has printed
/// "listening on PORT", killed when stopped or released. Its standard input is a pipe held
/// here: should the test process die first, a script that reads it (the ones in Scripts/ do)
/// sees the end of its input and exits.
public final class PythonServer: Sendable {
    /// The scripts shared by several test targets: Tests/TestSupport/Scripts.
    public static let sharedScripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Scripts").path

    public let port: Int
    private let process: Process
    private let input = Pipe()
    private let stopped = Lock(false)

    /// Starts `directory/script` (a shared script by default) with `python` (the one on PATH
    /// by default, or a virtual environment's) and waits for its port.
    public init(
        script: String, arguments: [String], directory: String = PythonServer.sharedScripts, python: String = "python3"
    ) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, directory + "/" + script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = text.split(separator: " ").last.flatMap({ Int($0) }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestFailure("\(script) did not start: '\(text)'")
        }
        self.port = port
    }

    /// Kills the script (SIGKILL: it may have inherited a signal mask that blocks SIGTERM) and
    /// waits for it to end. Only the first call does anything, so a reused process id is never hit.
    public func stop() {
        guard
            stopped.withLock({ (done: inout Bool) -> Bool in
                defer { done = true }
                return !done
            })
        else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}

/// A failure in the tests' own set-up, with the reason.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
