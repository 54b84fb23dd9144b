/// The subcommands `crashreport` has. Only `show` exists; ``planned`` names the ones the design
/// reserves (docs/cli.md) so that asking for them gets a clear message rather than "unknown".
enum Subcommand: String, CaseIterable, Sendable {
    case show

    /// Reserved for later: list pending reports, export (text, JSON, Sentry envelope), upload, stats.
    static let planned = ["list", "export", "upload", "stats"]

    var usage: String {
        switch self {
        case .show: "crashreport show [--json] FILE"
        }
    }
}

/// What the command line asks for.
enum Command: Equatable, Sendable {
    /// Print help: for the tool, or for one subcommand.
    case help(Subcommand?)
    case version
    case show(ShowOptions)
}

struct ShowOptions: Equatable, Sendable {
    enum Format: Equatable, Sendable {
        case text, json
    }

    var file: String
    var format: Format = .text
}

/// A command line that does not make sense; exit status 64.
struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    var message: String
    /// The subcommand whose usage to show with the error, if it got that far.
    var subcommand: Subcommand?

    var description: String { message }
}

/// Turns the arguments (without the program name) into a ``Command``. Pure: no I/O, no exit.
func parseArguments(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else {
        throw UsageError(message: "missing subcommand")
    }
    switch first {
    case "-h", "--help": return .help(nil)
    case "--version": return .version
    default: break
    }
    if first.hasPrefix("-") {
        throw UsageError(message: "unknown option '\(first)'")
    }
    guard let subcommand = Subcommand(rawValue: first) else {
        if Subcommand.planned.contains(first) {
            throw UsageError(message: "the '\(first)' subcommand is not available yet")
        }
        throw UsageError(message: "unknown subcommand '\(first)'")
    }
    let rest = Array(arguments.dropFirst())
    switch subcommand {
    case .show: return try parseShow(rest)
    }
}

private func parseShow(_ arguments: [String]) throws(UsageError) -> Command {
    var format = ShowOptions.Format.text
    var files: [String] = []
    var optionsEnded = false
    for argument in arguments {
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
            files.append(argument)
            continue
        }
        switch argument {
        case "--": optionsEnded = true
        case "--json": format = .json
        case "-h", "--help": return .help(.show)
        default: throw UsageError(message: "unknown option '\(argument)'", subcommand: .show)
        }
    }
    guard let file = files.first else {
        throw UsageError(message: "missing FILE", subcommand: .show)
    }
    if files.count > 1 {
        throw UsageError(message: "unexpected argument '\(files[1])'", subcommand: .show)
    }
    return .show(ShowOptions(file: file, format: format))
}
