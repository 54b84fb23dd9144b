/// The subcommands of `crashreport`.
enum Subcommand: String, CaseIterable, Sendable {
    case list, show, export, upload, stats

    var usage: String {
        switch self {
        case .list: "crashreport list [--json] [DIR]"
        case .show: "crashreport show [--json] [--no-symbols] [--dir DIR] ID|FILE"
        case .export: "crashreport export --format json|sentry-envelope [--dir DIR] ID|FILE"
        case .upload: "crashreport upload [--url URL | --dsn DSN] [DIR]"
        case .stats: "crashreport stats [--json] [DIR]"
        }
    }

    /// Flags without a value, options with one, and how many positional arguments.
    fileprivate var grammar: (flags: Set<String>, options: Set<String>, positionals: ClosedRange<Int>, name: String) {
        switch self {
        case .list: (["--json"], [], 0...1, "DIR")
        case .show: (["--json", "--no-symbols"], ["--dir"], 1...1, "ID or FILE")
        case .export: ([], ["--format", "--dir"], 1...1, "ID or FILE")
        case .upload: ([], ["--url", "--dsn"], 0...1, "DIR")
        case .stats: (["--json"], [], 0...1, "DIR")
        }
    }
}

/// What the command line asks for.
enum Command: Equatable, Sendable {
    /// Print help: for the tool, or for one subcommand.
    case help(Subcommand?)
    case version
    case list(ListOptions)
    case show(ShowOptions)
    case export(ExportOptions)
    case upload(UploadOptions)
    case stats(StatsOptions)
}

struct ListOptions: Equatable, Sendable {
    var directory: String?
    var json = false
}

struct ShowOptions: Equatable, Sendable {
    enum Format: Equatable, Sendable {
        case text, json
    }

    /// A report id (looked up in the state directory) or a file path.
    var file: String
    var format: Format = .text
    var directory: String? = nil
    var symbolicate = true
}

struct ExportOptions: Equatable, Sendable {
    enum Format: String, Equatable, Sendable, CaseIterable {
        case json
        case sentryEnvelope = "sentry-envelope"
    }

    var file: String
    var format: Format
    var directory: String? = nil
}

struct UploadOptions: Equatable, Sendable {
    var directory: String?
    var url: String?
    var dsn: String?
}

struct StatsOptions: Equatable, Sendable {
    var directory: String?
    var json = false
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
        throw UsageError(message: "unknown subcommand '\(first)'")
    }
    guard let parsed = try parse(Array(arguments.dropFirst()), as: subcommand) else { return .help(subcommand) }
    let positional = parsed.positionals.first
    switch subcommand {
    case .list:
        return .list(ListOptions(directory: positional, json: parsed.flags.contains("--json")))
    case .stats:
        return .stats(StatsOptions(directory: positional, json: parsed.flags.contains("--json")))
    case .show:
        return .show(
            ShowOptions(
                file: positional ?? "", format: parsed.flags.contains("--json") ? .json : .text,
                directory: parsed.options["--dir"], symbolicate: !parsed.flags.contains("--no-symbols")))
    case .export:
        guard let text = parsed.options["--format"] else {
            throw UsageError(message: "missing --format", subcommand: .export)
        }
        guard let format = ExportOptions.Format(rawValue: text) else {
            throw UsageError(message: "unknown format '\(text)' (json or sentry-envelope)", subcommand: .export)
        }
        return .export(ExportOptions(file: positional ?? "", format: format, directory: parsed.options["--dir"]))
    case .upload:
        if parsed.options["--url"] != nil && parsed.options["--dsn"] != nil {
            throw UsageError(message: "give --url or --dsn, not both", subcommand: .upload)
        }
        return .upload(UploadOptions(directory: positional, url: parsed.options["--url"], dsn: parsed.options["--dsn"]))
    }
}

private struct Parsed {
    var flags: Set<String> = []
    var options: [String: String] = [:]
    var positionals: [String] = []
}

/// Parses one subcommand's arguments by its grammar; nil means `--help` was asked for.
private func parse(_ arguments: [String], as subcommand: Subcommand) throws(UsageError) -> Parsed? {
    let grammar = subcommand.grammar
    var parsed = Parsed()
    var optionsEnded = false
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
            parsed.positionals.append(argument)
            continue
        }
        if argument == "--" {
            optionsEnded = true
        } else if argument == "-h" || argument == "--help" {
            return nil
        } else if grammar.flags.contains(argument) {
            parsed.flags.insert(argument)
        } else if grammar.options.contains(argument) {
            guard index < arguments.count else {
                throw UsageError(message: "missing value for \(argument)", subcommand: subcommand)
            }
            parsed.options[argument] = arguments[index]
            index += 1
        } else {
            throw UsageError(message: "unknown option '\(argument)'", subcommand: subcommand)
        }
    }
    if parsed.positionals.count < grammar.positionals.lowerBound {
        throw UsageError(message: "missing \(grammar.name)", subcommand: subcommand)
    }
    if parsed.positionals.count > grammar.positionals.upperBound {
        let extra = parsed.positionals[grammar.positionals.upperBound]
        throw UsageError(message: "unexpected argument '\(extra)'", subcommand: subcommand)
    }
    return parsed
}
