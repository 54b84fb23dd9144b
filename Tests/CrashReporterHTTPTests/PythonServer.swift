import Foundation

/// One of Support/'s Python scripts as a child process: started with its arguments, ready once
/// it has printed "listening on PORT", killed when released. Its standard input is a pipe held
/// here: should the test process die first, the script sees the end of its input and exits.
final class PythonServer: Sendable {
    let port: Int
    private let process: Process
    private let input = Pipe()

    init(script: String, arguments: [String]) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Support/\(script)").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path] + arguments
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

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// A failure in the tests' own set-up, with the reason.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
