import ArgumentParser
import CrashReportFormat
import CrashSymbolication

/// `crashreport show`: one report as a symbolicated crash log, or as JSON.
struct ShowCommand: ToolSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print one crash report.",
        discussion: """
            The report is validated against schema version 1 first; a damaged or foreign file is refused \
            with a one-line reason. Frames are symbolicated when the binary with the same build id is on \
            this machine.
            """)

    @Flag(help: "Print the report as JSON (pretty, sorted keys).")
    var json = false

    @Flag(name: .customLong("no-symbols"), help: "Do not symbolicate.")
    var noSymbols = false

    @Option(
        name: .customLong("dir"),
        help: ArgumentHelp(
            "The state directory to look the id up in (default: CRASH_REPORTER_DIR).", valueName: "dir"))
    var directory: String?

    @Argument(
        help: ArgumentHelp(
            "A report id (looked up in the state directory) or a .crash file.", valueName: "id-or-file"))
    var report: String

    func validate() throws {
        try requireNonEmpty(report, "ID or FILE")
        try requireNonEmpty(directory, "--dir")
    }

    func run(environment: [String: String], output: inout some TextOutputStream) throws {
        let report = try Locations.decodedReport(report, directory: directory, environment: environment)
        if json {
            output.write(try JSONRenderer().render(report))
            return
        }
        let symbolication = noSymbols ? nil : Symbolicator().symbolication(of: report)
        let renderer = TextRenderer(
            symbols: symbolication?.symbols ?? [:], runtimeFailure: symbolication?.runtimeFailure)
        output.write(renderer.render(report))
    }
}
