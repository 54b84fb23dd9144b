import ArgumentParser
import CrashReportDelivery
import CrashReportFormat
import CrashReporterSupport
import CrashSymbolication

/// `--debug-dir DIR`, repeatable, for the commands that symbolicate (`show`, `export`, `list`,
/// `stats`, `upload`): where the debug files of stripped binaries are, searched before the
/// directories in `CRASH_REPORTER_DEBUG_DIRS` (docs/symbolication.md).
struct DebugDirectoryArguments: ParsableArguments {
    @Option(
        name: .customLong("debug-dir"),
        help: ArgumentHelp(
            "A directory of debug files (DIR/.build-id/ab/cdef….debug or DIR/NAME.debug), checked by build id; "
                + "repeatable (also: \(EnvironmentVariable.debugDirectories.name); then the debuginfod servers "
                + "in \(EnvironmentVariable.debuginfodURLs.name)).",
            valueName: "dir"))
    var debugDirectories: [String] = []

    func validate() throws {
        for directory in debugDirectories { try requireNonEmpty(directory, "--debug-dir") }
    }

    /// A symbolicator that also looks in the given directories, then the variable's, then asks
    /// the debuginfod servers in `DEBUGINFOD_URLS`. A bad `DEBUGINFOD_TIMEOUT` or
    /// `DEBUGINFOD_MAXSIZE` is an error.
    func symbolicator(environment: [String: String]) throws(SettingError) -> Symbolicator {
        var directories = DebugDirectories(debugDirectories, environment: environment)
        directories.debuginfod = try Debuginfod(
            environment: environment, fetcher: HTTPDebugFileFetcher(environment: environment))
        return Symbolicator(debugDirectories: directories)
    }

    /// Symbolicates `report`, writing a note to standard error for each debug file passed over.
    func symbolication(of report: CrashReport, environment: [String: String]) throws(SettingError)
        -> Symbolication
    {
        let result = try symbolicator(environment: environment).symbolication(of: report)
        var errors = StandardStream.error
        for note in result.notes { errors.write("note: \(note)\n") }
        return result
    }
}
