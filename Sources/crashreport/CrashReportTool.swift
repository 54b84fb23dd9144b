import CrashReportFormat
import Foundation

/// Exit statuses, as swift-argument-parser uses them.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    /// EX_USAGE from sysexits.h.
    case usage = 64
}

@main
enum CrashReportTool {
    static func main() {
        var output = StandardStream.output
        var errors = StandardStream.error
        let status = run(Array(CommandLine.arguments.dropFirst()), output: &output, errors: &errors)
        exit(status.rawValue)
    }

    /// Runs one command line, writing to the given streams; never exits or traps.
    static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        output: inout some TextOutputStream, errors: inout some TextOutputStream
    ) -> ExitCode {
        let command: Command
        do {
            command = try parseArguments(arguments)
        } catch {
            errors.write("Error: \(error.message)\n\(Help.usage(for: error.subcommand))\n")
            return .usage
        }
        do {
            switch command {
            case .help(nil):
                output.write(Help.tool + "\n")
            case .help(let subcommand?):
                output.write(Help.text(for: subcommand) + "\n")
            case .version:
                output.write(Help.version + "\n")
            case .list(let options):
                return try ListCommand.run(options, environment: environment, output: &output)
            case .show(let options):
                return try ShowCommand.run(options, environment: environment, output: &output)
            case .export(let options):
                return try ExportCommand.run(options, environment: environment, output: &output)
            case .upload(let options):
                return try UploadCommand.run(options, environment: environment, output: &output)
            case .stats(let options):
                return try StatsCommand.run(options, environment: environment, output: &output)
            }
        } catch let failure as ToolFailure {
            errors.write("Error: \(failure.description)\n")
            return .failure
        } catch {
            errors.write("Error: \(oneLine(String(describing: error)))\n")
            return .failure
        }
        return .success
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Unbuffered standard output and error as text streams.
struct StandardStream: TextOutputStream {
    static let output = StandardStream(handle: .standardOutput)
    static let error = StandardStream(handle: .standardError)

    let handle: FileHandle

    mutating func write(_ string: String) {
        // A closed pipe (`| head`) ends the process with SIGPIPE, as for any Unix filter.
        try? handle.write(contentsOf: Data(string.utf8))
    }
}
