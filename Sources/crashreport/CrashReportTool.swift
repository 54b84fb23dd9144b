import CrashReport
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
        _ arguments: [String], output: inout some TextOutputStream, errors: inout some TextOutputStream
    ) -> ExitCode {
        let command: Command
        do {
            command = try parseArguments(arguments)
        } catch {
            errors.write("Error: \(error.message)\n\(Help.usage(for: error.subcommand))\n")
            return .usage
        }
        switch command {
        case .help(nil):
            output.write(Help.tool + "\n")
        case .help(let subcommand?):
            output.write(Help.text(for: subcommand) + "\n")
        case .version:
            output.write(Help.version + "\n")
        case .show(let options):
            return show(options, output: &output, errors: &errors)
        }
        return .success
    }

    static func show(
        _ options: ShowOptions, output: inout some TextOutputStream, errors: inout some TextOutputStream
    ) -> ExitCode {
        let report: CrashReport
        do {
            report = try ReportDecoding.decode(file: URL(fileURLWithPath: options.file))
        } catch {
            errors.write("Error: \(error.message(file: options.file))\n")
            return .failure
        }
        switch options.format {
        case .text:
            output.write(TextRenderer().render(report))
        case .json:
            do {
                output.write(try JSONRenderer().render(report))
            } catch {
                errors.write("Error: cannot encode the report as JSON: \(error)\n")
                return .failure
            }
        }
        return .success
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
