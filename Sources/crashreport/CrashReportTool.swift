import ArgumentParser
import CrashReportDelivery
import Foundation

/// `crashreport`: the root command. Its subcommands do the work; without one it is a usage error.
@main
struct CrashReportTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crashreport",
        abstract: "Review and deliver crash reports written by swift-crash-reporter.",
        discussion: """
            A crash report is a gzip-compressed JSON file (docs/report-schema.md) in a service's state \
            directory: pending/ until delivered, then delivered/ (or rejected/ with the reason).

            ENVIRONMENT:
              CRASH_REPORTER_DIR      The state directory when none is given.
              CRASH_REPORTER_URL, SENTRY_DSN, SENTRY_RELEASE, SENTRY_ENVIRONMENT
                                      Where and how `upload` and `watch` deliver when no option says.
              CRASH_REPORTER_RETRY_BASE_SECONDS, CRASH_REPORTER_UPLOAD_TIMEOUT_SECONDS,
              CRASH_REPORTER_DISABLED, CRASH_REPORTER_CAP_COUNT,
              CRASH_REPORTER_CAP_WINDOW_SECONDS, CRASH_REPORTER_MAX_PENDING_REPORTS,
              CRASH_REPORTER_MAX_PENDING_BYTES, CRASH_REPORTER_KEEP_DAYS
                                      Read by `upload` and `watch` as the service reads them.
              SSL_CERT_FILE, SSL_CERT_DIR, https_proxy, http_proxy, no_proxy
                                      Trust and proxies for https uploads.

            EXIT STATUS:
              0   success
              1   failure: a report missing or damaged, nowhere to upload, another
                  process delivering, an invalid setting
              64  the command line is wrong
              75  upload: reports stay pending for a retry (the server is down or
                  asked to wait)
            """,
        version: CrashReportVersion.current,
        subcommands: [
            ListCommand.self, ShowCommand.self, ExportCommand.self, UploadCommand.self, WatchCommand.self,
            StatsCommand.self, ImportCommand.self,
        ]
    )

    func run() throws {
        throw ValidationError("missing subcommand")
    }

    static func main() {
        var output = StandardStream.output
        var errors = StandardStream.error
        let status = run(
            Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            output: &output, errors: &errors)
        Foundation.exit(status)
    }

    /// Runs one command line, writing to the given streams; never exits or traps. Returns the exit
    /// status: 0, 1 for a failure, 64 (`EX_USAGE`) for a command line that is wrong.
    static func run(
        _ arguments: [String], environment: [String: String],
        output: inout some TextOutputStream, errors: inout some TextOutputStream
    ) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if let subcommand = command as? any ToolSubcommand {
                do {
                    try subcommand.run(environment: environment, output: &output)
                } catch let error as ToolFailure {
                    throw error
                } catch let error as ExitCode {
                    throw error
                } catch {
                    throw ToolFailure(description: String(describing: error))
                }
            } else {
                try command.run()
            }
            return ExitCode.success.rawValue
        } catch {
            // Help, the version and completion scripts arrive here too, with status 0.
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if status == .success {
                output.write(message + "\n")
            } else if !message.isEmpty {
                errors.write(message + "\n")
            }
            return status.rawValue
        }
    }
}

/// A subcommand that runs against a given environment and output, so tests need no process.
protocol ToolSubcommand: ParsableCommand {
    func run(environment: [String: String], output: inout some TextOutputStream) throws
}

extension ToolSubcommand {
    func run() throws {
        var output = StandardStream.output
        try run(environment: ProcessInfo.processInfo.environment, output: &output)
    }
}

/// A failure of a subcommand: one line on stderr, exit status 1.
struct ToolFailure: Error, CustomStringConvertible {
    var description: String

    init(description: String) {
        self.description = description.split(whereSeparator: \.isNewline).joined(separator: " ")
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
