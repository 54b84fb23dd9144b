import Foundation

/// Another program's standard output, for tests that check what we produce against a program of
/// the system it is for.
public enum ProgramOutput {
    /// Where `tool` is: the first directory of `PATH` (then `/usr/bin`, `/bin`, `/usr/local/bin`)
    /// that holds an executable of that name; nil when none does.
    public static func path(of tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/local/bin"]
        return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments`, `input` on its standard input, and returns what it wrote
    /// to standard output; throws when it exits with another status than 0, with the end of its
    /// standard error. The whole input is written before the output is read: for programs that
    /// read all their input first, or inputs smaller than a pipe's buffer.
    public static func run(_ executable: String, _ arguments: [String], input: Data?) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let failure = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure(
                "\(executable) \(arguments.prefix(3).joined(separator: " ")) failed: "
                    + String(decoding: failure, as: UTF8.self).suffix(2000))
        }
        return data
    }
}
