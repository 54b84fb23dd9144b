import ArgumentParser
import CrashReportFormat
import CrashReporterSupport

/// The report a subcommand reads: `[--dir DIR] ID|FILE` (`show`, `export`).
struct ReportArguments: ParsableArguments {
    @Option(
        name: .customLong("dir"),
        help: .defaulting(to: .stateDirectory, "The state directory to look the id up in", valueName: "dir"))
    var directory: String?

    @Argument(
        help: ArgumentHelp(
            "A report id (looked up in the state directory) or a .crash file.", valueName: "id-or-file"))
    var report: String

    func validate() throws {
        try requireNonEmpty(report, "ID or FILE")
        try requireNonEmpty(directory, "--dir")
    }

    /// The report, decoded (see `Locations.decodedReport`).
    func decoded(environment: [String: String]) throws(ToolFailure) -> CrashReport {
        try Locations.decodedReport(report, directory: directory, environment: environment)
    }
}

/// A state directory as the last argument, `[DIR]` (`list`, `stats`, `upload`).
struct StateDirectoryArgument: ParsableArguments {
    @Argument(help: .defaulting(to: .stateDirectory, "The state directory", valueName: "dir"))
    var directory: String?

    func validate() throws {
        try requireNonEmpty(directory, "DIR")
    }

    /// The directory, or `CRASH_REPORTER_DIR` (see `Locations.stateDirectory`).
    func resolved(environment: [String: String], mustExist: Bool = true) throws(ToolFailure) -> String {
        try Locations.stateDirectory(directory, environment: environment, mustExist: mustExist)
    }
}

/// Refuses an empty value for an argument that names a file or a directory.
func requireNonEmpty(_ value: String?, _ name: String) throws {
    if value?.isEmpty == true { throw ValidationError("\(name) is empty") }
}
