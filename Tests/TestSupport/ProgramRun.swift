import Foundation

/// Another program run to its end, for tests that check what we produce with a program of the
/// system it is for, or run one of our own tools as a user would: its exit status and what it
/// wrote.
public struct ProgramRun: Sendable {
    /// Where the program's standard error goes.
    public enum ErrorStream: Sendable {
        /// Kept apart, in `errors`.
        case apart
        /// Into `output`, interleaved with standard output as the program wrote them.
        case intoOutput
    }

    public let status: Int32
    /// What the program wrote to standard output (and standard error, with `.intoOutput`).
    public let output: Data
    /// What the program wrote to standard error, with `.apart`.
    public let errors: Data

    public var text: String { String(decoding: output, as: UTF8.self) }

    /// Runs `executable` with `arguments` in `directory` (this process's when nil), `input` on its
    /// standard input (none when nil), and waits for it to end. Standard error, kept apart, goes
    /// to an unlinked temporary file, so a program that writes much to both streams never waits
    /// on a full pipe. The whole input is written before the output is read: for programs that
    /// read all their input first, or inputs smaller than a pipe's buffer.
    public init(
        _ executable: String, _ arguments: [String], input: Data? = nil, in directory: String? = nil,
        errors: ErrorStream = .apart
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        process.standardOutput = output
        let errorFile: FileHandle?
        switch errors {
        case .apart:
            errorFile = try Self.unlinkedFile()
            process.standardError = errorFile
        case .intoOutput:
            errorFile = nil
            process.standardError = output
        }
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        self.output = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        if let errorFile {
            try errorFile.seek(toOffset: 0)
            self.errors = errorFile.readDataToEndOfFile()
            try errorFile.close()
        } else {
            self.errors = Data()
        }
    }

    /// Standard output, when the program exited with status 0; otherwise throws, with the command
    /// and the end of what it wrote to standard error.
    private func checkedOutput(_ command: String) throws -> Data {
        guard status == 0 else {
            throw TestFailure(
                "\(command) failed with status \(status): " + String(decoding: errors.suffix(2000), as: UTF8.self))
        }
        return output
    }

    /// Runs the program and returns its standard output; throws unless it exits with status 0.
    public static func output(
        _ executable: String, _ arguments: [String], input: Data? = nil, in directory: String? = nil
    )
        throws -> Data
    {
        try ProgramRun(executable, arguments, input: input, in: directory).checkedOutput(
            ([executable] + arguments.prefix(3)).joined(separator: " "))
    }

    /// Where `tool` is: the first directory of `PATH` (then `/usr/bin`, `/bin`, `/usr/local/bin`)
    /// that holds an executable of that name; nil when none does.
    public static func path(of tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/local/bin"]
        return directories.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func unlinkedFile() throws -> FileHandle {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("program-errors-\(UUID().uuidString)")
            .path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TestFailure("cannot make \(path): errno \(errno)") }
        unlink(path)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
